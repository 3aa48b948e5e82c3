#!/usr/bin/env python3
"""Writes tests/optim/lr_scheduler_fixtures.spl: torch.optim.lr_scheduler's learning-rate
sequences (the optimizer's group["lr"] after construction and after each of 200 steps; the
momentum / beta1 too where a scheduler cycles it), for every scheduler with several option
sets; closed forms through step(epoch); state_dict() after 100 steps; the groups' keys;
error texts. lr_scheduler_spec.spl builds the same cases (same names) in Simple.

Optimizers: SGD(lr=0.1, momentum=0.9) over one group, or two groups (the second lr=0.05);
Adam(lr=0.1) where a scheduler cycles betas; Adagrad where one must refuse (no momentum).
Run: .venv/bin/python tests/optim/make_lr_scheduler_fixtures.py"""
import math
import os
import sys
import warnings

import torch
from torch.optim import lr_scheduler as L

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 200

warnings.filterwarnings("ignore")


def sgd(groups=1):
    if groups == 1:
        return torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1, momentum=0.9)
    return torch.optim.SGD([{"params": [torch.zeros(2, requires_grad=True)]},
                            {"params": [torch.zeros(3, requires_grad=True)], "lr": 0.05}], lr=0.1, momentum=0.9)


def adam():
    return torch.optim.Adam([torch.zeros(2, requires_grad=True)], lr=0.1)


# A metric that improves in steps and stalls in between (min mode); its negation for max mode.
METRICS = [round(1.0 / (1 + i // 15) + 0.002 * ((i * 7) % 5), 6) for i in range(STEPS)]
METRICS_UP = [-m for m in METRICS]

# name -> (optimizer factory, scheduler factory, which momentum to record, metrics)
CASES = {
    "step_30": (sgd, lambda o: L.StepLR(o, 30), None, None),
    "step_7_half": (sgd, lambda o: L.StepLR(o, 7, gamma=0.5), None, None),
    "step_groups": (lambda: sgd(2), lambda o: L.StepLR(o, 10, gamma=0.9), None, None),
    "multistep": (sgd, lambda o: L.MultiStepLR(o, [30, 80]), None, None),
    "multistep_repeat": (lambda: sgd(2), lambda o: L.MultiStepLR(o, [10, 10, 50, 120], gamma=0.5), None, None),
    "exp": (sgd, lambda o: L.ExponentialLR(o, 0.95), None, None),
    "exp_groups": (lambda: sgd(2), lambda o: L.ExponentialLR(o, 0.99), None, None),
    "cos_50": (sgd, lambda o: L.CosineAnnealingLR(o, 50), None, None),
    "cos_30_eta": (sgd, lambda o: L.CosineAnnealingLR(o, 30, eta_min=0.001), None, None),
    "cos_groups": (lambda: sgd(2), lambda o: L.CosineAnnealingLR(o, 200, eta_min=0.01), None, None),
    "warm_10": (sgd, lambda o: L.CosineAnnealingWarmRestarts(o, 10), None, None),
    "warm_mult": (sgd, lambda o: L.CosineAnnealingWarmRestarts(o, 7, T_mult=2, eta_min=0.001), None, None),
    "warm_groups": (lambda: sgd(2), lambda o: L.CosineAnnealingWarmRestarts(o, 20, T_mult=3), None, None),
    "linear": (sgd, lambda o: L.LinearLR(o), None, None),
    "linear_50": (sgd, lambda o: L.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=50), None, None),
    "linear_down": (lambda: sgd(2), lambda o: L.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=120), None, None),
    "constant": (sgd, lambda o: L.ConstantLR(o), None, None),
    "constant_40": (lambda: sgd(2), lambda o: L.ConstantLR(o, factor=0.5, total_iters=40), None, None),
    "poly": (sgd, lambda o: L.PolynomialLR(o), None, None),
    "poly_2": (sgd, lambda o: L.PolynomialLR(o, total_iters=100, power=2.0), None, None),
    "poly_half": (lambda: sgd(2), lambda o: L.PolynomialLR(o, total_iters=150, power=0.5), None, None),
    "onecycle": (sgd, lambda o: L.OneCycleLR(o, 1.0, total_steps=200), "momentum", None),
    "onecycle_3phase_linear": (sgd, lambda o: L.OneCycleLR(o, 0.5, epochs=20, steps_per_epoch=10, pct_start=0.25, anneal_strategy="linear", three_phase=True), "momentum", None),
    "onecycle_groups": (lambda: sgd(2), lambda o: L.OneCycleLR(o, [1.0, 0.3], total_steps=250, base_momentum=[0.8, 0.85], max_momentum=[0.9, 0.99], div_factor=10.0, final_div_factor=100.0), "momentum", None),
    "onecycle_nomom": (sgd, lambda o: L.OneCycleLR(o, 0.1, total_steps=200, cycle_momentum=False), "momentum", None),
    "onecycle_betas": (adam, lambda o: L.OneCycleLR(o, 0.01, total_steps=200), "betas", None),
    "cyclic": (sgd, lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=20), "momentum", None),
    "cyclic_tri2": (sgd, lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=15, step_size_down=25, mode="triangular2"), "momentum", None),
    "cyclic_exp": (lambda: sgd(2), lambda o: L.CyclicLR(o, [0.01, 0.02], [0.1, 0.05], step_size_up=10, mode="exp_range", gamma=0.99, base_momentum=0.7, max_momentum=0.95), "momentum", None),
    "cyclic_nomom": (sgd, lambda o: L.CyclicLR(o, 0.001, 0.01, step_size_up=30, cycle_momentum=False), "momentum", None),
    "cyclic_custom": (sgd, lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=12, scale_fn=lambda x: 1.0 / (1.0 + 0.1 * x), scale_mode="iterations"), "momentum", None),
    "cyclic_betas": (adam, lambda o: L.CyclicLR(o, 0.001, 0.01, step_size_up=25), "betas", None),
    "lambda": (sgd, lambda o: L.LambdaLR(o, lambda e: 0.95 ** e), None, None),
    "lambda_list": (lambda: sgd(2), lambda o: L.LambdaLR(o, [lambda e: 1.0 / (e // 30 + 1), lambda e: 0.5 * (1 + math.cos(math.pi * e / 200))]), None, None),
    "multiplicative": (sgd, lambda o: L.MultiplicativeLR(o, lambda e: 0.95), None, None),
    "multiplicative_alt": (lambda: sgd(2), lambda o: L.MultiplicativeLR(o, lambda e: 0.99 if e % 2 == 0 else 1.005), None, None),
    "sequential": (sgd, lambda o: L.SequentialLR(o, [L.LinearLR(o, start_factor=0.1, total_iters=10), L.CosineAnnealingLR(o, T_max=190)], milestones=[10]), None, None),
    "sequential_3": (lambda: sgd(2), lambda o: L.SequentialLR(o, [L.ConstantLR(o, factor=0.5, total_iters=20), L.ExponentialLR(o, 0.97), L.StepLR(o, 10, gamma=0.5)], milestones=[30, 100]), None, None),
    "chained": (sgd, lambda o: L.ChainedScheduler([L.ConstantLR(o, factor=0.1, total_iters=20), L.ExponentialLR(o, 0.98)]), None, None),
    "chained_3": (lambda: sgd(2), lambda o: L.ChainedScheduler([L.LinearLR(o, start_factor=0.5, total_iters=40), L.StepLR(o, 25, gamma=0.7), L.MultiStepLR(o, [60, 90], gamma=0.5)], optimizer=o), None, None),
    "plateau": (sgd, lambda o: L.ReduceLROnPlateau(o), None, METRICS),
    "plateau_max_abs": (sgd, lambda o: L.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=3, threshold=0.01, threshold_mode="abs", cooldown=5), None, METRICS_UP),
    "plateau_max_rel": (sgd, lambda o: L.ReduceLROnPlateau(o, mode="max", patience=2, threshold=0.05), None, METRICS_UP),
    "plateau_min_abs": (sgd, lambda o: L.ReduceLROnPlateau(o, patience=4, threshold=0.02, threshold_mode="abs", min_lr=0.0005, cooldown=2), None, METRICS),
    "plateau_groups": (lambda: sgd(2), lambda o: L.ReduceLROnPlateau(o, factor=0.3, patience=0, min_lr=[0.001, 0.002], eps=1e-4), None, METRICS),
}

# One case per scheduler whose state_dict() after 100 steps is recorded (keys and values).
STATE_CASES = ["step_7_half", "multistep_repeat", "exp", "cos_50", "warm_mult", "linear_50", "constant_40", "poly_2",
               "onecycle", "onecycle_nomom", "cyclic_tri2", "cyclic_nomom", "lambda", "multiplicative",
               "sequential_3", "chained_3", "plateau_max_abs"]


def momenta(opt, which):
    if which == "betas":
        return [list(g["betas"]) for g in opt.param_groups]
    return [g["momentum"] for g in opt.param_groups]


def run(case, steps=STEPS, state_at=None):
    make_opt, make, which, metrics = CASES[case]
    opt = make_opt()
    s = make(opt)
    lrs = [[g["lr"] for g in opt.param_groups]]
    mom = [momenta(opt, which)] if which else None
    state = None
    for i in range(1, steps + 1):
        opt.step()
        if metrics is not None:
            s.step(metrics[i - 1])
        else:
            s.step()
        lrs.append([g["lr"] for g in opt.param_groups])
        assert s.get_last_lr() == lrs[-1], case
        if which:
            mom.append(momenta(opt, which))
        if i == state_at:
            state = dict(s.state_dict())
    return lrs, mom, state


def closed_forms():
    """step(epoch): the closed forms (PyTorch warns that the argument is deprecated)."""
    out = {}
    makers = {
        "step": lambda o: L.StepLR(o, 7, gamma=0.5),
        "multistep": lambda o: L.MultiStepLR(o, [5, 20, 20, 40], gamma=0.3),
        "constant": lambda o: L.ConstantLR(o, factor=0.25, total_iters=12),
        "linear": lambda o: L.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=30),
        "exp": lambda o: L.ExponentialLR(o, 0.9),
        "poly": lambda o: L.PolynomialLR(o, total_iters=40, power=1.5),
        "cos": lambda o: L.CosineAnnealingLR(o, 30, eta_min=0.002),
    }
    for name, make in makers.items():
        opt = sgd()
        s = make(opt)
        seq = []
        for e in [3, 10, 25, 60, 0, 12]:
            s.step(e)
            seq.append(opt.param_groups[0]["lr"])
        out["closed_" + name] = seq
    opt = sgd()
    s = L.CosineAnnealingWarmRestarts(opt, 5, T_mult=2, eta_min=0.01)
    seq = []
    for e in [3, 5.5, 20, 50.25, 2, 16]:
        s.step(e)
        seq.append([opt.param_groups[0]["lr"], s.T_cur, s.T_i, s.last_epoch])
    out["closed_warm"] = seq
    return out


def resume():
    """ExponentialLR taking over at last_epoch=50 from a StepLR (initial_lr already set)."""
    opt = sgd()
    s = L.StepLR(opt, 7, gamma=0.5)
    for _ in range(50):
        opt.step()
        s.step()
    s2 = L.ExponentialLR(opt, 0.9, last_epoch=50)
    seq = [opt.param_groups[0]["lr"]]
    for _ in range(50):
        opt.step()
        s2.step()
        seq.append(opt.param_groups[0]["lr"])
    return seq, s2.base_lrs, s2.last_epoch


def resume_cosine():
    """CosineAnnealingLR made with last_epoch=3 (initial_lr set in both groups), its get_lr()
    asked right away (the closed form PyTorch's recursive get_lr uses on the step after a
    resume), then five steps."""
    opt = sgd(2)
    for g in opt.param_groups:
        g["initial_lr"] = g["lr"]
    s = L.CosineAnnealingLR(opt, 10, eta_min=0.01, last_epoch=3)
    seq = [s.get_lr()]
    for _ in range(5):
        opt.step()
        s.step()
        seq.append([g["lr"] for g in opt.param_groups])
    return seq


def errors():
    p = torch.zeros(2, requires_grad=True)
    o = sgd()
    o2 = sgd()
    e = {}
    e["not_optimizer"] = error_text(lambda: L.StepLR(torch.zeros(2), 3))
    e["lambda_count"] = error_text(lambda: L.LambdaLR(o, [lambda x: 1.0, lambda x: 2.0]))
    e["multiplicative_fn"] = error_text(lambda: L.MultiplicativeLR(o, 0.9))
    e["constant_factor"] = error_text(lambda: L.ConstantLR(o, factor=1.5))
    e["linear_start"] = error_text(lambda: L.LinearLR(o, start_factor=0.0))
    e["linear_end"] = error_text(lambda: L.LinearLR(o, end_factor=1.5))
    e["warm_t0"] = error_text(lambda: L.CosineAnnealingWarmRestarts(o, 0))
    e["warm_tmult"] = error_text(lambda: L.CosineAnnealingWarmRestarts(o, 10, T_mult=0))
    e["warm_eta"] = error_text(lambda: L.CosineAnnealingWarmRestarts(o, 10, eta_min="x"))
    e["onecycle_none"] = error_text(lambda: L.OneCycleLR(o, 0.1))
    e["onecycle_total"] = error_text(lambda: L.OneCycleLR(o, 0.1, total_steps=0))
    e["onecycle_epochs"] = error_text(lambda: L.OneCycleLR(o, 0.1, epochs=0, steps_per_epoch=10))
    e["onecycle_spe"] = error_text(lambda: L.OneCycleLR(o, 0.1, epochs=10, steps_per_epoch=-1))
    e["onecycle_pct"] = error_text(lambda: L.OneCycleLR(o, 0.1, total_steps=10, pct_start=1.5))
    e["onecycle_pct_int"] = error_text(lambda: L.OneCycleLR(o, 0.1, total_steps=10, pct_start=1))
    e["onecycle_anneal"] = error_text(lambda: L.OneCycleLR(o, 0.1, total_steps=10, anneal_strategy="exp"))
    e["onecycle_max_lr"] = error_text(lambda: L.OneCycleLR(o, [0.1, 0.2, 0.3], total_steps=10))
    e["onecycle_momentum"] = error_text(lambda: L.OneCycleLR(torch.optim.Adagrad([p], lr=0.1), 0.1, total_steps=10))

    def overstep():
        s = L.OneCycleLR(sgd(), 0.1, total_steps=10)
        for _ in range(11):
            s.step()
    e["onecycle_overstep"] = error_text(overstep)
    e["cyclic_mode"] = error_text(lambda: L.CyclicLR(o, 0.01, 0.1, mode="foo"))
    e["cyclic_momentum"] = error_text(lambda: L.CyclicLR(torch.optim.Adagrad([p], lr=0.1), 0.01, 0.1))
    e["cyclic_base_lr"] = error_text(lambda: L.CyclicLR(o, [0.01, 0.02], 0.1))
    e["sequential_empty"] = error_text(lambda: L.SequentialLR(o, [], []))
    e["sequential_plateau"] = error_text(lambda: L.SequentialLR(o, [L.ReduceLROnPlateau(o)], []))
    e["sequential_other"] = error_text(lambda: L.SequentialLR(o, [L.StepLR(o, 3), L.StepLR(o2, 3)], [5]))
    e["sequential_milestones"] = error_text(lambda: L.SequentialLR(o, [L.StepLR(o, 3), L.StepLR(o, 3)], [5, 6]))
    e["sequential_attr"] = error_text(lambda: L.SequentialLR(o, [5], []))
    e["chained_empty"] = error_text(lambda: L.ChainedScheduler([]))
    e["chained_plateau"] = error_text(lambda: L.ChainedScheduler([L.StepLR(o, 3), L.ReduceLROnPlateau(o)]))
    e["chained_other"] = error_text(lambda: L.ChainedScheduler([L.StepLR(o, 3), L.StepLR(o2, 3)]))
    e["plateau_factor"] = error_text(lambda: L.ReduceLROnPlateau(o, factor=1.0))
    e["plateau_mode"] = error_text(lambda: L.ReduceLROnPlateau(o, mode="avg"))
    e["plateau_threshold_mode"] = error_text(lambda: L.ReduceLROnPlateau(o, threshold_mode="x"))
    e["plateau_min_lrs"] = error_text(lambda: L.ReduceLROnPlateau(o, min_lr=[0.1, 0.2]))
    e["plateau_not_optimizer"] = error_text(lambda: L.ReduceLROnPlateau(torch.zeros(2)))
    try:
        L.StepLR(sgd(), 3, last_epoch=5)
    except KeyError as exc:
        e["resume_initial_lr"] = exc.args[0]    # str(KeyError) would quote it
    return e


class Stepped:
    """An optimizer whose step() also steps its scheduler: what trajectory() drives."""

    def __init__(self, opt, make_sched):
        self.opt = opt
        self.sched = make_sched(opt)

    def zero_grad(self):
        self.opt.zero_grad()

    def step(self):
        self.opt.step()
        self.sched.step()


def trained():
    """The fixed problem trained for 100 steps with a scheduler: the optimizer reads the lr
    (and momentum / betas) the scheduler writes."""
    return {
        "train_sgd_onecycle": trajectory(lambda ps: Stepped(torch.optim.SGD(ps, lr=0.1, momentum=0.9), lambda o: L.OneCycleLR(o, 0.5, total_steps=100))),
        "train_sgd_cosine": trajectory(lambda ps: Stepped(torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True), lambda o: L.CosineAnnealingLR(o, 30))),
        "train_adam_cyclic": trajectory(lambda ps: Stepped(torch.optim.Adam(ps, lr=0.01), lambda o: L.CyclicLR(o, 0.001, 0.02, step_size_up=10))),
    }


def main():
    v = {}
    v.update(trained())
    v["metrics"] = METRICS
    v["metrics_up"] = METRICS_UP
    for case, (_, _, which, _) in CASES.items():
        lrs, mom, state = run(case, state_at=100 if case in STATE_CASES else None)
        v[case + "_lrs"] = lrs
        if which:
            v[case + "_mom"] = mom
        if state is not None:
            v[case + "_sd_keys"] = list(state.keys())
            v[case + "_sd_values"] = list(state.values())
    v.update(closed_forms())
    v["resume_lrs"], v["resume_base_lrs"], v["resume_last_epoch"] = resume()
    v["resume_cosine_lrs"] = resume_cosine()
    # the group keys a scheduler adds (after the optimizer's own), in order
    for name, (make_opt, make) in {"step": (sgd, lambda o: L.StepLR(o, 3)),
                                   "onecycle": (sgd, lambda o: L.OneCycleLR(o, 1.0, total_steps=10)),
                                   "cyclic": (sgd, lambda o: L.CyclicLR(o, 0.01, 0.1)),
                                   "onecycle_betas": (adam, lambda o: L.OneCycleLR(o, 0.01, total_steps=10))}.items():
        opt = make_opt()
        make(opt)
        g = opt.param_groups[0]
        v["group_" + name + "_keys"] = [k for k in g.keys() if k not in opt.defaults and k != "params"]
        v["group_" + name + "_values"] = [list(g[k]) if isinstance(g[k], tuple) else g[k] for k in v["group_" + name + "_keys"]]
    for k, text in errors().items():
        v["error_" + k] = text
    path = os.path.join(HERE, "lr_scheduler_fixtures.spl")
    write(path, __file__, v)


if __name__ == "__main__":
    main()
