#!/usr/bin/env python3
"""Writes tests/optim/adagrad_fixtures.spl: torch.optim.Adagrad trajectories on the fixed
problem (trajectory.py), each option combination, loop (PyTorch's CPU default) vs foreach
vs fused; groups (one added after construction); state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_adagrad_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(lr=0.1),
    "lr_decay": dict(lr=0.1, lr_decay=0.01),
    "weight_decay": dict(lr=0.1, weight_decay=0.01),
    "initial_accumulator": dict(lr=0.05, initial_accumulator_value=0.1, eps=1e-6),
    "maximize": dict(lr=0.01, maximize=True),
    "all": dict(lr=0.1, lr_decay=0.01, weight_decay=0.01, initial_accumulator_value=0.1, maximize=True),
}


def added_group(ps):
    # the second group's state is made at its first step, from the defaults
    opt = torch.optim.Adagrad(ps[:2], lr=0.1, initial_accumulator_value=0.2)
    opt.add_param_group({"params": ps[2:], "lr": 0.05})
    return opt


def main():
    v = {}
    for name, opts in CASES.items():
        v["adagrad_" + name] = trajectory(lambda ps: torch.optim.Adagrad(ps, **opts))
        v["adagrad_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.Adagrad(ps, foreach=True, **opts))
        v["adagrad_" + name + "_fused"] = trajectory(lambda ps: torch.optim.Adagrad(ps, fused=True, **opts))
    v["adagrad_groups"] = trajectory(lambda ps: torch.optim.Adagrad(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.05, "lr_decay": 0.1}], lr=0.1))
    v["adagrad_added_group"] = trajectory(added_group)
    opt = torch.optim.Adagrad(problem(), lr=0.1, lr_decay=0.01)
    v["adagrad_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["adagrad_repr"] = repr(opt)
    v["adagrad_default_repr"] = repr(torch.optim.Adagrad(problem()))
    # the state exists before any step
    st = torch.optim.Adagrad(problem(), initial_accumulator_value=0.25).state_dict()["state"]
    v["adagrad_state_len"] = len(st)
    v["adagrad_state_keys"] = list(st[0].keys())
    v["adagrad_state_step"] = float(st[0]["step"])
    v["adagrad_state_sum"] = st[1]["sum"].tolist()
    v["adagrad_error_lr"] = error_text(lambda: torch.optim.Adagrad(problem(), lr=-0.1))
    v["adagrad_error_lr_decay"] = error_text(lambda: torch.optim.Adagrad(problem(), lr_decay=-0.5))
    v["adagrad_error_weight_decay"] = error_text(lambda: torch.optim.Adagrad(problem(), weight_decay=-0.5))
    v["adagrad_error_initial"] = error_text(lambda: torch.optim.Adagrad(problem(), initial_accumulator_value=-0.5))
    v["adagrad_error_eps"] = error_text(lambda: torch.optim.Adagrad(problem(), eps=-0.5))
    v["adagrad_error_fused_foreach"] = error_text(lambda: torch.optim.Adagrad(problem(), fused=True, foreach=True))
    v["adagrad_error_fused_differentiable"] = error_text(lambda: torch.optim.Adagrad(problem(), fused=True, differentiable=True))
    write(os.path.join(HERE, "adagrad_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
