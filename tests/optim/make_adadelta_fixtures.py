#!/usr/bin/env python3
"""Writes tests/optim/adadelta_fixtures.spl: torch.optim.Adadelta trajectories on the fixed
problem (trajectory.py), each option combination, the loop (PyTorch's CPU default) and
foreach; groups; state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_adadelta_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(),
    "rho": dict(lr=0.5, rho=0.8, eps=1e-5),
    "weight_decay": dict(lr=1.0, weight_decay=0.01),
    "maximize": dict(lr=0.1, maximize=True),
    "all": dict(lr=2.0, rho=0.95, weight_decay=0.01, maximize=True),
}


def main():
    v = {}
    for name, opts in CASES.items():
        # PyTorch's CPU default (the loop), then foreach explicitly; Adadelta has no fused.
        v["adadelta_" + name] = trajectory(lambda ps: torch.optim.Adadelta(ps, **opts))
        v["adadelta_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.Adadelta(ps, foreach=True, **opts))
    v["adadelta_groups"] = trajectory(lambda ps: torch.optim.Adadelta(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.5, "rho": 0.5}], lr=1.0))
    opt = torch.optim.Adadelta(problem(), rho=0.95)
    v["adadelta_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["adadelta_repr"] = repr(opt)
    ps = problem()
    opt = torch.optim.Adadelta(ps)
    sum(p.sum() for p in ps).backward()
    opt.step()
    v["adadelta_state_keys"] = list(opt.state_dict()["state"][0].keys())
    v["adadelta_error_lr"] = error_text(lambda: torch.optim.Adadelta(problem(), lr=-0.1))
    v["adadelta_error_rho_low"] = error_text(lambda: torch.optim.Adadelta(problem(), rho=-0.1))
    v["adadelta_error_rho_high"] = error_text(lambda: torch.optim.Adadelta(problem(), rho=1.5))
    v["adadelta_error_eps"] = error_text(lambda: torch.optim.Adadelta(problem(), eps=-0.5))
    v["adadelta_error_weight_decay"] = error_text(lambda: torch.optim.Adadelta(problem(), weight_decay=-0.5))

    def capturable_on_cpu(foreach):
        ps = problem()
        opt = torch.optim.Adadelta(ps, capturable=True, foreach=foreach)
        sum(p.sum() for p in ps).backward()
        opt.step()
    v["adadelta_error_capturable"] = error_text(lambda: capturable_on_cpu(False))
    v["adadelta_error_capturable_foreach"] = error_text(lambda: capturable_on_cpu(True))
    write(os.path.join(HERE, "adadelta_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
