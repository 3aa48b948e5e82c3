#!/usr/bin/env python3
"""Writes tests/optim/asgd_rprop_fixtures.spl: torch.optim.ASGD and torch.optim.Rprop
trajectories on the fixed problem (trajectory.py), each option that changes the update, the
loop (PyTorch's CPU default) and foreach; ASGD's running average "ax"; groups; state_dict
structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_asgd_rprop_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import complex_trajectory, data, loss_of, problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

ASGD_CASES = {
    "plain": dict(),
    "decay": dict(lr=0.05, lambd=0.01, alpha=0.5),
    "averaging": dict(lr=0.05, t0=20),
    "weight_decay": dict(lr=0.05, t0=20, weight_decay=0.01),
    "maximize": dict(lr=0.01, lambd=0.001, t0=30, weight_decay=0.01, maximize=True),
}

RPROP_CASES = {
    "plain": dict(),
    "etas": dict(lr=0.005, etas=(0.3, 1.5)),
    "step_sizes": dict(lr=0.02, step_sizes=(0.001, 0.05)),
    "maximize": dict(lr=0.001, maximize=True),
}


def asgd_ax(opts, steps=40):
    """ASGD's "ax" (the running average) of every parameter after `steps` steps."""
    ps = problem()
    x, y = data()
    opt = torch.optim.ASGD(ps, **opts)
    for _ in range(steps):
        opt.zero_grad()
        loss_of(ps, x, y).backward()
        opt.step()
    return [flat(opt.state[p]["ax"]) for p in ps] + [[opt.state[ps[0]]["eta"].item(), opt.state[ps[0]]["mu"].item()]]


def one_step_state(opt, ps):
    sum(p.sum() for p in ps).backward()
    opt.step()
    return opt.state_dict()["state"][0]


def capturable_on_cpu(cls, foreach):
    ps = problem()
    opt = cls(ps, capturable=True, foreach=foreach)
    sum(p.sum() for p in ps).backward()
    opt.step()


def main():
    v = {}
    for name, opts in ASGD_CASES.items():
        v["asgd_" + name] = trajectory(lambda ps: torch.optim.ASGD(ps, **opts))
        v["asgd_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.ASGD(ps, foreach=True, **opts))
    for name in ["averaging", "maximize"]:
        v["asgd_ax_" + name] = asgd_ax(ASGD_CASES[name])
        v["asgd_ax_" + name + "_foreach"] = asgd_ax(dict(foreach=True, **ASGD_CASES[name]))
    # complex parameters, through their real views
    v["asgd_complex"] = complex_trajectory(lambda ps: torch.optim.ASGD(ps, lr=0.05, t0=5, weight_decay=0.01))
    v["asgd_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.ASGD(ps, lr=0.05, t0=5, weight_decay=0.01, foreach=True))
    v["asgd_groups"] = trajectory(lambda ps: torch.optim.ASGD(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.1, "t0": 10}], lr=0.05))
    opt = torch.optim.ASGD(problem(), lr=0.05, t0=20)
    v["asgd_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["asgd_repr"] = repr(opt)
    v["asgd_default_repr"] = repr(torch.optim.ASGD(problem()))
    ps = problem()
    st = one_step_state(torch.optim.ASGD(ps), ps)
    v["asgd_state_keys"] = list(st.keys())
    v["asgd_state_scalars"] = [st["step"].item(), st["eta"].item(), st["mu"].item()]
    v["asgd_state_dtypes"] = [str(st[k].dtype).replace("torch.", "") for k in ["step", "eta", "mu"]]
    v["asgd_error_lr"] = error_text(lambda: torch.optim.ASGD(problem(), lr=-0.1))
    v["asgd_error_lambd"] = error_text(lambda: torch.optim.ASGD(problem(), lambd=-0.1))
    v["asgd_error_alpha"] = error_text(lambda: torch.optim.ASGD(problem(), alpha=-0.5))
    v["asgd_error_weight_decay"] = error_text(lambda: torch.optim.ASGD(problem(), weight_decay=-0.5))
    v["asgd_error_capturable"] = error_text(lambda: capturable_on_cpu(torch.optim.ASGD, False))
    v["asgd_error_capturable_foreach"] = error_text(lambda: capturable_on_cpu(torch.optim.ASGD, True))

    for name, opts in RPROP_CASES.items():
        v["rprop_" + name] = trajectory(lambda ps: torch.optim.Rprop(ps, **opts))
        v["rprop_" + name + "_foreach"] = trajectory(lambda ps: torch.optim.Rprop(ps, foreach=True, **opts))
    v["rprop_complex"] = complex_trajectory(lambda ps: torch.optim.Rprop(ps, lr=0.05))
    v["rprop_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.Rprop(ps, lr=0.05, foreach=True))
    v["rprop_groups"] = trajectory(lambda ps: torch.optim.Rprop(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.001, "etas": (0.4, 1.1)}], lr=0.02))
    opt = torch.optim.Rprop(problem(), etas=(0.4, 1.3))
    v["rprop_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["rprop_repr"] = repr(opt)
    v["rprop_default_repr"] = repr(torch.optim.Rprop(problem()))
    ps = problem()
    st = one_step_state(torch.optim.Rprop(ps), ps)
    v["rprop_state_keys"] = list(st.keys())
    v["rprop_step_size"] = flat(st["step_size"])
    v["rprop_error_lr"] = error_text(lambda: torch.optim.Rprop(problem(), lr=-0.1))
    v["rprop_error_etas_low"] = error_text(lambda: torch.optim.Rprop(problem(), etas=(0.0, 1.2)))
    v["rprop_error_etas_high"] = error_text(lambda: torch.optim.Rprop(problem(), etas=(0.5, 1.0)))
    v["rprop_error_capturable"] = error_text(lambda: capturable_on_cpu(torch.optim.Rprop, False))
    v["rprop_error_capturable_foreach"] = error_text(lambda: capturable_on_cpu(torch.optim.Rprop, True))
    write(os.path.join(HERE, "asgd_rprop_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
