"""Optimizers on the device against Python's on the same device (optim_fixtures.spl): Adam
(foreach, fused), AdamW fused, SGD momentum (foreach, fused) and capturable Adam/AdamW (loop and
foreach) over 10 steps of tests/optim's fixed problem, moved to the device; fused with
capturable (which fused ignores). On the CPU: PyTorch's refusal of capturable, and its
capturable branches run directly (the device check lifted), which lib.torch's must equal."""
import os
import sys

import torch
import torch.optim.adam as adam_module

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402
from trajectory import data, loss_of, problem


def on_device():
    params = [p.detach().to(DEVICE).requires_grad_() for p in problem()]
    x, y = (t.to(DEVICE) for t in data())
    return params, x, y


def steps(make_opt, n=10):
    """The parameters after each of n steps of make_opt(params)."""
    params, x, y = on_device()
    opt = make_opt(params)
    snaps = []
    for _ in range(n):
        opt.zero_grad()
        loss_of(params, x, y).backward()
        opt.step()
        snaps.append([flat(p) for p in params])
    return snaps


def branch(foreach, amsgrad, decoupled, n=10):
    """PyTorch's capturable branch of the loop (foreach False) or of foreach, called directly
    on the CPU with its device check lifted: the parameters after each of n steps."""
    params, x, y = on_device()
    m = [torch.zeros_like(p) for p in params]
    v = [torch.zeros_like(p) for p in params]
    vmax = [torch.zeros_like(p) for p in params] if amsgrad else []
    step_ts = [torch.zeros((), dtype=torch.float32, device=p.device) for p in params]
    run = adam_module._multi_tensor_adam if foreach else adam_module._single_tensor_adam
    lifted = adam_module._get_capturable_supported_devices
    adam_module._get_capturable_supported_devices = lambda supports_xla=True: [DEVICE]
    snaps = []
    try:
        for _ in range(n):
            for p in params:
                p.grad = None
            loss_of(params, x, y).backward()
            with torch.no_grad():
                run(params, [p.grad for p in params], m, v, vmax, step_ts, None, None, amsgrad=amsgrad, has_complex=False,
                    beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.1, eps=1e-6, maximize=False, capturable=True,
                    differentiable=False, decoupled_weight_decay=decoupled)
            snaps.append([flat(p) for p in params])
    finally:
        adam_module._get_capturable_supported_devices = lifted
    return snaps + [[flat(s) for s in step_ts]]


def refusal(cls, **kw):
    def go():
        params, x, y = on_device()
        opt = cls(params, capturable=True, **kw)
        loss_of(params, x, y).backward()
        opt.step()
    return error_text(go)


def make():
    v = {}
    v["adam_foreach"] = steps(lambda ps: torch.optim.Adam(ps, lr=0.01, foreach=True))
    v["adam_fused"] = steps(lambda ps: torch.optim.Adam(ps, lr=0.01, fused=True))
    v["adam_amsgrad_fused"] = steps(lambda ps: torch.optim.Adam(ps, lr=0.01, amsgrad=True, weight_decay=0.1, fused=True))
    v["adamw_fused"] = steps(lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.1, fused=True))
    v["adamw_fused_capturable"] = steps(lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.1, fused=True, capturable=True))
    v["sgd_foreach"] = steps(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, foreach=True))
    v["sgd_fused"] = steps(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01, fused=True))
    for foreach in (False, True):
        for amsgrad, decoupled, tag in ((False, False, "plain"), (True, True, "amsgrad_decoupled")):
            key = "branch_{}_{}".format("foreach" if foreach else "loop", tag)
            v[key] = branch(foreach, amsgrad, decoupled) if DEVICE == "cpu" else []
    if DEVICE == "cpu":
        v["error_capturable"] = refusal(torch.optim.Adam)
        v["error_capturable_loop"] = refusal(torch.optim.AdamW, foreach=False)
        v["error_capturable_foreach"] = refusal(torch.optim.Adam, foreach=True)
    else:
        v["adam_capturable"] = steps(lambda ps: torch.optim.Adam(ps, lr=0.01, capturable=True))
        v["adam_capturable_loop"] = steps(lambda ps: torch.optim.Adam(ps, lr=0.01, capturable=True, foreach=False))
        v["adamw_capturable_amsgrad"] = steps(lambda ps: torch.optim.AdamW(ps, lr=0.01, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True, capturable=True, foreach=True))
        v["adamw_capturable_loop_amsgrad"] = steps(lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.1, amsgrad=True, capturable=True, foreach=False))
    return v


if __name__ == "__main__":
    main(__file__, "optim", make)
