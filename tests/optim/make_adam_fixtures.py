#!/usr/bin/env python3
"""Writes tests/optim/adam_fixtures.spl: torch.optim.Adam and AdamW trajectories on the fixed
problem (trajectory.py), each option combination, loop vs foreach vs fused; a complex parameter; state_dict
structure; repr; error texts. Run: .venv/bin/python tests/optim/make_adam_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import complex_trajectory, problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "adam_plain": (torch.optim.Adam, dict(lr=0.01)),
    "adam_amsgrad": (torch.optim.Adam, dict(lr=0.01, amsgrad=True)),
    "adam_weight_decay": (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1)),
    "adam_maximize": (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1, amsgrad=True, maximize=True)),
    "adam_decoupled": (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "adam_betas": (torch.optim.Adam, dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6)),
    "adamw_plain": (torch.optim.AdamW, dict(lr=0.01)),
    "adamw_amsgrad": (torch.optim.AdamW, dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    "adamw_maximize": (torch.optim.AdamW, dict(lr=0.01, maximize=True)),
}


def main():
    v = {}
    for name, (cls, opts) in CASES.items():
        # PyTorch's CPU default (the loop), then foreach and fused explicitly.
        v[name] = trajectory(lambda ps: cls(ps, **opts))
        v[name + "_foreach"] = trajectory(lambda ps: cls(ps, foreach=True, **opts))
        v[name + "_fused"] = trajectory(lambda ps: cls(ps, fused=True, **opts))
        # Why our default may run the foreach kernels: on CPU they give the loop's numbers.
        assert v[name] == v[name + "_foreach"], name
    v["adam_groups"] = trajectory(lambda ps: torch.optim.Adam(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.002, "betas": (0.5, 0.9)}], lr=0.01, amsgrad=True))

    # state_dict: keys, the step's dtype and value after 100 steps
    for name, cls, opts in [("adam", torch.optim.Adam, dict(lr=0.01, amsgrad=True)),
                            ("adam_fused", torch.optim.Adam, dict(lr=0.01, fused=True)),
                            ("adamw", torch.optim.AdamW, dict(lr=0.01))]:
        holder = {}
        trajectory(lambda ps: holder.setdefault("opt", cls(ps, **opts)))
        sd = holder["opt"].state_dict()
        v[name + "_state_keys"] = list(sd["state"][0].keys())
        v[name + "_step"] = [sd["state"][0]["step"].item(), str(sd["state"][0]["step"].dtype).replace("torch.", ""),
                             list(sd["state"][0]["step"].shape)]
        v[name + "_exp_avg_sq"] = [float(x) for x in sd["state"][2]["exp_avg_sq"].reshape(-1).double().tolist()]
    opt = torch.optim.Adam(problem())
    v["adam_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["adam_repr"] = repr(opt)
    opt = torch.optim.AdamW(problem(), lr=0.01)
    v["adamw_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["adamw_repr"] = repr(opt)

    def err(**kw):
        return error_text(lambda: torch.optim.Adam(problem(), **kw))
    v["adam_error_lr"] = err(lr=-0.1)
    v["adam_error_eps"] = err(eps=-1.0)
    v["adam_error_beta0"] = err(betas=(1.0, 0.999))
    v["adam_error_beta1"] = err(betas=(0.9, -0.5))
    v["adam_error_weight_decay"] = err(weight_decay=-0.1)
    v["adam_error_fused_foreach"] = err(fused=True, foreach=True)
    v["adam_error_fused_differentiable"] = err(fused=True, differentiable=True)
    v["adamw_error_beta1"] = error_text(lambda: torch.optim.AdamW(problem(), betas=(0.9, 1.0)))
    v["adam_complex"] = complex_trajectory(lambda ps: torch.optim.Adam(ps, lr=0.05, amsgrad=True))
    v["adam_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.Adam(ps, foreach=True, lr=0.05, amsgrad=True))
    v["adamw_complex"] = complex_trajectory(lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1))
    v["adamw_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.AdamW(ps, foreach=True, lr=0.05, weight_decay=0.1))
    write(os.path.join(HERE, "adam_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
