#!/usr/bin/env python3
"""Writes tests/optim/adafactor_muon_fixtures.spl: torch.optim.Adafactor (loop, PyTorch's
default, and foreach) and torch.optim.Muon (the 2-D weights of the fixed problem only)
trajectories on the fixed problem (trajectory.py), each option that changes the update;
groups; state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_adafactor_muon_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

ADAFACTOR_CASES = {
    "plain": dict(),
    "lr": dict(lr=0.05, beta2_decay=-0.5),
    "eps": dict(lr=0.05, eps=(1e-6, 1e-2)),
    "clipping": dict(lr=0.1, d=1.5),
    "weight_decay": dict(lr=0.05, weight_decay=0.1),
    "maximize": dict(lr=0.01, weight_decay=0.01, maximize=True),
}

# Muon optimizes the two weight matrices (8x5, a tall one, and 3x8, a wide one).
MUON_CASES = {
    "plain": dict(),
    "lr": dict(lr=0.02, weight_decay=0.01),
    "no_nesterov": dict(lr=0.02, nesterov=False, momentum=0.9),
    "match_rms_adamw": dict(lr=0.02, adjust_lr_fn="match_rms_adamw"),
    "spectral_unclamped": dict(lr=0.02, adjust_lr_fn="spectral_unclamped", weight_decay=0.0),
    "ns": dict(lr=0.02, ns_steps=3, ns_coefficients=(3.0, -3.2, 1.2), eps=1e-5),
}


def one_step_states(opt, ps):
    sum(p.sum() for p in ps).backward()
    opt.step()
    return opt.state_dict()["state"]


def step_with(make):
    ps = problem()
    opt = make(ps)
    sum(p.sum() for p in ps).backward()
    opt.step()


def main():
    v = {}
    for name, opts in ADAFACTOR_CASES.items():
        v["adafactor_" + name] = trajectory(lambda ps: torch.optim.Adafactor(ps, **opts))
        v["adafactor_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.Adafactor(ps, foreach=True, **opts))
    v["adafactor_groups"] = trajectory(lambda ps: torch.optim.Adafactor(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.05, "d": 2.0}], lr=0.02))
    opt = torch.optim.Adafactor(problem(), lr=0.05, eps=(1e-6, 1e-2))
    v["adafactor_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["adafactor_repr"] = repr(opt)
    v["adafactor_default_repr"] = repr(torch.optim.Adafactor(problem()))
    ps = problem()
    states = one_step_states(torch.optim.Adafactor(ps), ps)
    v["adafactor_state_keys"] = [list(states[i].keys()) for i in range(4)]
    v["adafactor_state_shapes"] = [list(states[0]["row_var"].shape), list(states[0]["col_var"].shape)]
    v["adafactor_error_lr"] = error_text(lambda: torch.optim.Adafactor(problem(), lr=-0.1))
    v["adafactor_error_beta2_decay"] = error_text(lambda: torch.optim.Adafactor(problem(), beta2_decay=0.5))
    v["adafactor_error_eps1"] = error_text(lambda: torch.optim.Adafactor(problem(), eps=(-1.0, 1e-3)))
    v["adafactor_error_eps2"] = error_text(lambda: torch.optim.Adafactor(problem(), eps=(None, -1.0)))
    v["adafactor_error_d"] = error_text(lambda: torch.optim.Adafactor(problem(), d=0.5))
    v["adafactor_error_weight_decay"] = error_text(lambda: torch.optim.Adafactor(problem(), weight_decay=-0.5))
    c = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
    c.grad = torch.ones(3, dtype=torch.complex64)
    v["adafactor_error_complex"] = error_text(lambda: torch.optim.Adafactor([c]).step())

    for name, opts in MUON_CASES.items():
        v["muon_" + name] = trajectory(lambda ps: torch.optim.Muon([ps[0], ps[2]], **opts))
    v["muon_groups"] = trajectory(lambda ps: torch.optim.Muon(
        [{"params": [ps[0]]}, {"params": [ps[2]], "lr": 0.05, "nesterov": False}], lr=0.02))
    opt = torch.optim.Muon([problem()[0]], lr=0.02, adjust_lr_fn="match_rms_adamw")
    v["muon_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["muon_repr"] = repr(opt)
    v["muon_default_repr"] = repr(torch.optim.Muon([problem()[0]]))
    ps = problem()
    v["muon_state_keys"] = list(one_step_states(torch.optim.Muon([ps[0], ps[2]]), ps)[0].keys())
    v["muon_error_lr"] = error_text(lambda: torch.optim.Muon([problem()[0]], lr=-0.1))
    v["muon_error_momentum"] = error_text(lambda: torch.optim.Muon([problem()[0]], momentum=-0.5))
    v["muon_error_weight_decay"] = error_text(lambda: torch.optim.Muon([problem()[0]], weight_decay=-0.5))
    v["muon_error_adjust_lr_fn"] = error_text(lambda: torch.optim.Muon([problem()[0]], adjust_lr_fn="sqrt"))
    v["muon_error_1d"] = error_text(lambda: torch.optim.Muon(problem()))
    v["muon_error_ns_steps"] = error_text(lambda: step_with(lambda ps: torch.optim.Muon([ps[0]], ns_steps=100)))
    write(os.path.join(HERE, "adafactor_muon_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
