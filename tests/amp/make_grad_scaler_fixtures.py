#!/usr/bin/env python3
"""Writes tests/amp/grad_scaler_fixtures.spl and tests/amp/grad_scaler_state.pt:
torch.amp.GradScaler("cpu") over 40 training steps of a fixed 5-8-3 tanh MLP (four plain
tensors, no randomness) with an inf or a NaN written into a gradient at some steps, for SGD
and Adam (foreach, fused) with and without unscale_ + clip_grad_norm_: the scale after
every update, which steps were skipped, the final parameters and growth tracker, Adam's
step count. The fused optimizers' protocol (grad_scale and found_inf set on the optimizer)
with an inf at the first step too: the optimizer's state_dict after that skipped step and at
the end, weights, gradients, scales; a grad_scale set beforehand. Also a disabled scaler, new_scale, nested outputs, PyTorch's error texts, and a
state_dict saved with torch.save that the spec loads (then continues, as Python does here).

    .venv/bin/python tests/amp/make_grad_scaler_fixtures.py

Deterministic: fixed tensors; torch.save writes the same bytes each run.
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
sys.path.insert(0, os.path.join(HERE, "..", "optim"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import data, loss_of, problem  # noqa: E402  (tests/optim's fixed problem)

STEPS = 40
# step -> the value written into a gradient's first element (parameter step % 4).
BAD = {5: float("inf"), 6: float("nan"), 17: float("-inf"), 29: float("nan"), 30: float("inf")}
# The same with an inf at the first step too.
BAD0 = {0: float("inf"), **BAD}


def train(params, opt, scaler, steps, clip=None, bad=BAD, first=0):
    """Steps first..first+steps-1; returns (scale after each update, skipped flags)."""
    x, y = data()
    scales, skipped = [], []
    for i in range(first, first + steps):
        opt.zero_grad()
        scaler.scale(loss_of(params, x, y)).backward()
        if i in bad:
            params[i % 4].grad.view(-1)[0] = bad[i]
        if clip is not None:
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, clip)
        scaler.step(opt)
        if scaler.is_enabled():
            skipped.append(bool(sum(v.item() for v in scaler._found_inf_per_device(opt).values())))
        scaler.update()
        scales.append(scaler.get_scale())
    return scales, skipped


def case(v, name, make_opt, clip=None, bad=BAD, **scaler_kw):
    params = problem()
    opt = make_opt(params)
    scaler = torch.amp.GradScaler("cpu", growth_interval=3, **scaler_kw)
    scales, skipped = train(params, opt, scaler, STEPS, clip, bad=bad)
    v[name + "_scales"] = scales
    v[name + "_skipped"] = skipped
    v[name + "_params"] = [flat(p) for p in params]
    v[name + "_tracker"] = scaler._get_growth_tracker()
    st = opt.state_dict()["state"]
    v[name + "_step"] = float(st[0]["step"]) if 0 in st and "step" in st[0] else -1.0


v = {}
sgd = lambda ps, **kw: torch.optim.SGD(ps, lr=0.05, momentum=0.9, **kw)  # noqa: E731
adam = lambda ps, **kw: torch.optim.Adam(ps, lr=0.01, **kw)  # noqa: E731
case(v, "sgd", lambda ps: sgd(ps))
case(v, "sgd_fused", lambda ps: sgd(ps, fused=True))
case(v, "adam_foreach", lambda ps: adam(ps, foreach=True))
case(v, "adam_fused", lambda ps: adam(ps, fused=True))
case(v, "adamw_fused", lambda ps: torch.optim.AdamW(ps, lr=0.01, fused=True))
# unscale_ then clip_grad_norm_ then step (the fused one in its UNSCALED stage).
case(v, "adam_clip", lambda ps: adam(ps, foreach=True), clip=0.5)
case(v, "adam_fused_clip", lambda ps: adam(ps, fused=True), clip=0.5)
case(v, "sgd_clip", lambda ps: sgd(ps), clip=0.25)
# A scale that is no power of two: unscale_ multiplies by its float32 reciprocal, the fused
# kernel divides by it.
odd = dict(init_scale=1000.0, growth_factor=3.0, backoff_factor=0.25)
case(v, "adam_odd", lambda ps: adam(ps, foreach=True), **odd)
case(v, "adam_fused_odd", lambda ps: adam(ps, fused=True), **odd)
# Fused Adagrad (whose lib.torch step takes no grad_scale/found_inf: the scaler divides and
# skips for it); its state is made by its constructor, so skipped steps, the first too, read
# the same.
case(v, "adagrad_fused_odd", lambda ps: torch.optim.Adagrad(ps, lr=0.05, fused=True), bad=BAD0, **odd)

# Two optimizers, one scaler (PyTorch's per-optimizer states): an inf in one optimizer's
# gradients skips that optimizer's step only; update() backs off once for both.
params = problem()
opt1 = sgd(params[:2])
opt2 = adam(params[2:], fused=True)
s = torch.amp.GradScaler("cpu", growth_interval=3)
x, y = data()
scales, skipped = [], []
for i in range(STEPS):
    opt1.zero_grad()
    opt2.zero_grad()
    s.scale(loss_of(params, x, y)).backward()
    if i in BAD:
        params[i % 4].grad.view(-1)[0] = BAD[i]
    s.step(opt1)
    s.step(opt2)
    skipped.append([bool(sum(t.item() for t in s._found_inf_per_device(o).values())) for o in (opt1, opt2)])
    s.update()
    scales.append(s.get_scale())
v["two_scales"] = scales
v["two_skipped"] = skipped
v["two_params"] = [flat(p) for p in params]

# enabled=False: scale() gives its argument back, step() always steps (no injected values).
params = problem()
opt = sgd(params)
off = torch.amp.GradScaler("cpu", enabled=False)
x, y = data()
loss = loss_of(params, x, y)
v["off_same_object"] = off.scale(loss) is loss
train(params, opt, off, 10, bad={})
v["off_params"] = [flat(p) for p in params]
v["off_scale"] = off.get_scale()
v["off_state_dict"] = off.state_dict()
v["off_enabled"] = off.is_enabled()
v["off_error_factor"] = error_text(lambda: off.get_growth_factor())

# Before any scale(): the init values; new_scale as a float and as a tensor.
s = torch.amp.GradScaler("cpu", init_scale=256.0, growth_factor=4.0, backoff_factor=0.125, growth_interval=7)
v["fresh_state_dict"] = s.state_dict()
params = problem()
opt = sgd(params)
train(params, opt, s, 2, bad={})
s.update(new_scale=1024.0)
v["new_scale_float"] = s.get_scale()
s.update(new_scale=torch.tensor(512.0))
v["new_scale_tensor"] = s.get_scale()
s.set_growth_factor(8.0)
s.set_backoff_factor(0.25)
s.set_growth_interval(5)
v["set_state_dict"] = s.state_dict()

# scale() of nested lists and tuples.
s = torch.amp.GradScaler("cpu", init_scale=8.0)
t = torch.tensor([1.0, -2.0])
out = s.scale([t, (t * 2, [t * 3])])
v["nested_values"] = [flat(out[0]), flat(out[1][0]), flat(out[1][1][0])]
v["nested_kinds"] = [type(out).__name__, type(out[1]).__name__, type(out[1][1]).__name__]

# state_dict after 20 steps, through torch.save; then 20 more steps after loading it
# into a new scaler, as the spec does after lib.torch.load.
params = problem()
opt = adam(params, foreach=True)
s = torch.amp.GradScaler("cpu", growth_interval=3)
train(params, opt, s, 20)
sd = s.state_dict()
v["saved_state_dict"] = sd
torch.save(sd, os.path.join(HERE, "grad_scaler_state.pt"))
s2 = torch.amp.GradScaler("cpu", growth_interval=100)
s2.load_state_dict(torch.load(os.path.join(HERE, "grad_scaler_state.pt")))
v["loaded_state_dict"] = s2.state_dict()
scales, skipped = train(params, opt, s2, 20, first=20)
v["resumed_scales"] = scales
v["resumed_skipped"] = skipped
v["resumed_params"] = [flat(p) for p in params]


# The fused optimizers' own protocol (_step_supports_amp_scaling): the scaler sets
# optimizer.grad_scale and .found_inf, the step runs even when an inf was found (the kernel
# skips, the step count is taken back), so a skipped FIRST step creates the state.
def plain(v, values=True):
    """The optimizer's state_dict as plain values: each tensor as its dtype, shape and
    (with values) flattened values; tuples as lists."""
    if isinstance(v, torch.Tensor):
        out = {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape)}
        if values:
            out["values"] = flat(v)
        return out
    if isinstance(v, dict):
        return {k: plain(x, values) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x, values) for x in v]
    return v


def first_case(v, name, make_opt, clip=None):
    """40 steps with an inf at step 0 too: the state_dict after the skipped first step, then
    the scales, skipped steps, weights, gradients and the final state_dict."""
    params = problem()
    opt = make_opt(params)
    scaler = torch.amp.GradScaler("cpu", growth_interval=3)
    train(params, opt, scaler, 1, clip, bad=BAD0)
    v[name + "_first_state"] = plain(opt.state_dict())
    v[name + "_first_params"] = [flat(p) for p in params]
    v[name + "_first_attrs"] = [hasattr(opt, "grad_scale"), hasattr(opt, "found_inf")]
    scales, skipped = train(params, opt, scaler, STEPS - 1, clip, bad=BAD0, first=1)
    v[name + "_scales"] = scales
    v[name + "_skipped"] = skipped
    v[name + "_params"] = [flat(p) for p in params]
    v[name + "_grads"] = [flat(p.grad) for p in params]
    v[name + "_state"] = plain(opt.state_dict())


first_case(v, "first_adam", lambda ps: adam(ps, fused=True))
first_case(v, "first_adamw", lambda ps: torch.optim.AdamW(ps, lr=0.01, amsgrad=True, fused=True))
first_case(v, "first_sgd", lambda ps: torch.optim.SGD(ps, lr=0.05, weight_decay=0.01, fused=True))
first_case(v, "first_adam_clip", lambda ps: adam(ps, fused=True), clip=0.5)

# Fused SGD with momentum: a skipped first step leaves torch.empty_like buffers in the state
# (PyTorch's _fused_sgd makes them, the kernel skips): their dtype and shape only.
params = problem()
opt = sgd(params, fused=True)
train(params, opt, torch.amp.GradScaler("cpu"), 1, bad=BAD0)
v["first_sgd_momentum_state"] = plain(opt.state_dict(), values=False)
v["first_sgd_momentum_params"] = [flat(p) for p in params]

# A grad_scale the user set on the optimizer: the kernel divides by its product with the
# scale; the scaler removes it after the step.
params = problem()
opt = adam(params, fused=True)
s = torch.amp.GradScaler("cpu", growth_interval=3)
x, y = data()
for i in range(3):
    opt.zero_grad()
    s.scale(loss_of(params, x, y)).backward()
    opt.grad_scale = torch.tensor(4.0)
    s.step(opt)
    s.update()
v["preset_params"] = [flat(p) for p in params]
v["preset_attrs"] = [hasattr(opt, "grad_scale"), hasattr(opt, "found_inf")]

# Errors, as PyTorch raises them.
def stepped(clip=False, scaler_kw=None):
    params = problem()
    opt = sgd(params)
    s = torch.amp.GradScaler("cpu", **(scaler_kw or {}))
    x, y = data()
    s.scale(loss_of(params, x, y)).backward()
    return params, opt, s


def twice_unscale():
    _, opt, s = stepped()
    s.unscale_(opt)
    s.unscale_(opt)


def unscale_after_step():
    _, opt, s = stepped()
    s.step(opt)
    s.unscale_(opt)


def step_twice():
    _, opt, s = stepped()
    s.step(opt)
    s.step(opt)


def no_grads():
    params = problem()
    opt = sgd(params)
    s = torch.amp.GradScaler("cpu")
    s.scale(torch.ones(()))
    s.step(opt)


def fp16():
    p = torch.ones(3, dtype=torch.float16, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    s = torch.amp.GradScaler("cpu")
    s.scale((p * p).sum()).backward()
    s.step(opt)


def unscaled_step():
    params = problem()
    opt = sgd(params)
    torch.amp.GradScaler("cpu").step(opt)


def closure():
    _, opt, s = stepped()
    s.step(opt, closure=lambda: 0.0)


def grad_scale_unfused(make):
    params = problem()
    opt = make(params)
    loss_of(params, *data()).backward()
    opt.grad_scale = torch.tensor(1.0)
    opt.step()


def new_scale_bad():
    _, opt, s = stepped()
    s.step(opt)
    s.update(torch.tensor([1.0, 2.0]))


v["errors"] = {
    "unscale_twice": error_text(twice_unscale),
    "unscale_after_step": error_text(unscale_after_step),
    "step_twice": error_text(step_twice),
    "no_grads": error_text(no_grads),
    "fp16": error_text(fp16),
    "step_unscaled": error_text(unscaled_step),
    "update_unscaled": error_text(lambda: torch.amp.GradScaler("cpu").update()),
    "unscale_unscaled": error_text(lambda: torch.amp.GradScaler("cpu").unscale_(sgd(problem()))),
    "update_no_step": error_text(lambda: stepped()[2].update()),
    "growth": error_text(lambda: torch.amp.GradScaler("cpu", growth_factor=1.0)),
    "backoff": error_text(lambda: torch.amp.GradScaler("cpu", backoff_factor=1.0)),
    "closure": error_text(closure),
    "scale_number": error_text(lambda: torch.amp.GradScaler("cpu").scale(3.0)),
    "load_empty": error_text(lambda: torch.amp.GradScaler("cpu").load_state_dict({})),
    "new_scale_bad": error_text(new_scale_bad),
    "new_scale_int": error_text(lambda: stepped()[2].update(new_scale=3)),
    "grad_scale_adam": error_text(lambda: grad_scale_unfused(lambda ps: adam(ps, foreach=False))),
    "grad_scale_sgd": error_text(lambda: grad_scale_unfused(sgd)),
}

write(os.path.join(HERE, "grad_scaler_fixtures.spl"), __file__, v, index=True)
