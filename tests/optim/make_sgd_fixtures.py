#!/usr/bin/env python3
"""Writes tests/optim/sgd_fixtures.spl: torch.optim.SGD trajectories on the fixed problem
(trajectory.py), each option combination, loop vs foreach vs fused; state_dict structure;
error texts. Run: .venv/bin/python tests/optim/make_sgd_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(lr=0.1),
    "momentum": dict(lr=0.05, momentum=0.9),
    "dampening": dict(lr=0.05, momentum=0.9, dampening=0.3),
    "nesterov": dict(lr=0.05, momentum=0.9, nesterov=True),
    "weight_decay": dict(lr=0.1, momentum=0.5, weight_decay=0.01),
    "maximize": dict(lr=0.01, momentum=0.9, weight_decay=0.01, maximize=True),
}


def main():
    v = {}
    for name, opts in CASES.items():
        # PyTorch's CPU default (the loop), then foreach and fused explicitly.
        v["sgd_" + name] = trajectory(lambda ps: torch.optim.SGD(ps, **opts))
        v["sgd_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.SGD(ps, foreach=True, **opts))
        v["sgd_" + name + "_fused"] = trajectory(lambda ps: torch.optim.SGD(ps, fused=True, **opts))
    # parameter groups with their own options
    v["sgd_groups"] = trajectory(lambda ps: torch.optim.SGD(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.01, "momentum": 0.5}], lr=0.1, momentum=0.9))
    opt = torch.optim.SGD(problem(), lr=0.1, momentum=0.9)
    v["sgd_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["sgd_repr"] = repr(opt)
    # named parameters, as PyTorch 2.6+ accepts them: the groups keep param_names
    named = [("w1", opt.param_groups[0]["params"][0]), ("b1", opt.param_groups[0]["params"][1])]
    opt_named = torch.optim.SGD(named, lr=0.1)
    v["sgd_named_group_keys"] = list(opt_named.state_dict()["param_groups"][0].keys())
    v["sgd_named_param_names"] = opt_named.state_dict()["param_groups"][0]["param_names"]
    v["sgd_named_mixed_error"] = error_text(lambda: torch.optim.SGD([named[0], problem()[1]], lr=0.1))
    v["sgd_error_lr"] = error_text(lambda: torch.optim.SGD(problem(), lr=-0.1))
    v["sgd_error_momentum"] = error_text(lambda: torch.optim.SGD(problem(), lr=0.1, momentum=-0.5))
    v["sgd_error_nesterov"] = error_text(lambda: torch.optim.SGD(problem(), lr=0.1, nesterov=True))
    v["sgd_error_empty"] = error_text(lambda: torch.optim.SGD([], lr=0.1))
    p = problem()
    v["sgd_error_nonleaf"] = error_text(lambda: torch.optim.SGD([p[0] * 2], lr=0.1))
    v["sgd_error_twice"] = error_text(lambda: torch.optim.SGD([{"params": p[:2]}, {"params": p[1:]}], lr=0.1))
    write(os.path.join(HERE, "sgd_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
