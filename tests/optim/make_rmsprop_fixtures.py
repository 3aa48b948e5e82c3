#!/usr/bin/env python3
"""Writes tests/optim/rmsprop_fixtures.spl: torch.optim.RMSprop trajectories on the fixed
problem (trajectory.py), each option combination, the loop (PyTorch's CPU default) and
foreach; groups; state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_rmsprop_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(lr=0.01),
    "centered": dict(lr=0.01, centered=True),
    "momentum": dict(lr=0.01, momentum=0.9),
    "centered_momentum": dict(lr=0.005, alpha=0.9, momentum=0.5, centered=True),
    "weight_decay": dict(lr=0.01, momentum=0.5, weight_decay=0.01, eps=1e-6),
    "maximize": dict(lr=0.001, momentum=0.9, centered=True, weight_decay=0.01, maximize=True),
}


def main():
    v = {}
    for name, opts in CASES.items():
        # PyTorch's CPU default (the loop), then foreach explicitly; RMSprop has no fused.
        v["rmsprop_" + name] = trajectory(lambda ps: torch.optim.RMSprop(ps, **opts))
        v["rmsprop_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.RMSprop(ps, foreach=True, **opts))
    v["rmsprop_groups"] = trajectory(lambda ps: torch.optim.RMSprop(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.001, "centered": True, "momentum": 0.5}], lr=0.01, momentum=0.9))
    opt = torch.optim.RMSprop(problem(), lr=0.01, momentum=0.9, centered=True)
    v["rmsprop_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["rmsprop_repr"] = repr(opt)
    v["rmsprop_default_repr"] = repr(torch.optim.RMSprop(problem()))
    # state keys after one step, and "step" as a 0-d float32 tensor
    ps = problem()
    opt = torch.optim.RMSprop(ps, momentum=0.9, centered=True)
    sum(p.sum() for p in ps).backward()
    opt.step()
    st = opt.state_dict()["state"][0]
    v["rmsprop_state_keys"] = list(st.keys())
    v["rmsprop_step_dtype"] = str(st["step"].dtype).replace("torch.", "")
    v["rmsprop_step_shape"] = list(st["step"].shape)
    v["rmsprop_error_lr"] = error_text(lambda: torch.optim.RMSprop(problem(), lr=-0.1))
    v["rmsprop_error_eps"] = error_text(lambda: torch.optim.RMSprop(problem(), eps=-0.1))
    v["rmsprop_error_momentum"] = error_text(lambda: torch.optim.RMSprop(problem(), momentum=-0.5))
    v["rmsprop_error_weight_decay"] = error_text(lambda: torch.optim.RMSprop(problem(), weight_decay=-0.5))
    v["rmsprop_error_alpha"] = error_text(lambda: torch.optim.RMSprop(problem(), alpha=-0.5))
    v["rmsprop_error_empty"] = error_text(lambda: torch.optim.RMSprop([]))

    def capturable_on_cpu(foreach):
        ps = problem()
        opt = torch.optim.RMSprop(ps, capturable=True, foreach=foreach)
        sum(p.sum() for p in ps).backward()
        opt.step()
    v["rmsprop_error_capturable"] = error_text(lambda: capturable_on_cpu(False))
    v["rmsprop_error_capturable_foreach"] = error_text(lambda: capturable_on_cpu(True))
    write(os.path.join(HERE, "rmsprop_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
