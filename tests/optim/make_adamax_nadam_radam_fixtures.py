#!/usr/bin/env python3
"""Writes tests/optim/adamax_nadam_radam_fixtures.spl: torch.optim.Adamax, NAdam and RAdam
trajectories on the fixed problem (trajectory.py), each option combination, loop vs foreach
(none of them has a fused kernel); a complex parameter; state_dict structure; repr; error texts.
Run: .venv/bin/python tests/optim/make_adamax_nadam_radam_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402
from trajectory import complex_trajectory, problem, trajectory  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "adamax_plain": (torch.optim.Adamax, dict(lr=0.02)),
    "adamax_weight_decay": (torch.optim.Adamax, dict(lr=0.02, weight_decay=0.1)),
    "adamax_maximize": (torch.optim.Adamax, dict(lr=0.02, weight_decay=0.1, maximize=True)),
    "adamax_betas": (torch.optim.Adamax, dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6)),
    "nadam_plain": (torch.optim.NAdam, dict(lr=0.01)),
    "nadam_weight_decay": (torch.optim.NAdam, dict(lr=0.01, weight_decay=0.1)),
    "nadam_decoupled": (torch.optim.NAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "nadam_momentum_decay": (torch.optim.NAdam, dict(lr=0.01, momentum_decay=0.01, betas=(0.8, 0.99))),
    "nadam_maximize": (torch.optim.NAdam, dict(lr=0.01, weight_decay=0.1, maximize=True)),
    "radam_plain": (torch.optim.RAdam, dict(lr=0.01)),
    "radam_weight_decay": (torch.optim.RAdam, dict(lr=0.01, weight_decay=0.1)),
    "radam_decoupled": (torch.optim.RAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "radam_maximize": (torch.optim.RAdam, dict(lr=0.01, weight_decay=0.1, maximize=True)),
    "radam_betas": (torch.optim.RAdam, dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6)),
}

# Where the foreach kernels give the loop's numbers bit for bit (so our default may use them).
SAME = {}


def main():
    v = {}
    for name, (cls, opts) in CASES.items():
        # PyTorch's CPU default (the loop), then foreach explicitly.
        v[name] = trajectory(lambda ps: cls(ps, **opts))
        v[name + "_foreach"] = trajectory(lambda ps: cls(ps, foreach=True, **opts))
        SAME[name] = v[name] == v[name + "_foreach"]
    print("foreach == loop bit for bit:", SAME)
    assert all(SAME[n] for n in SAME if n.startswith("adamax")), "Adamax's default runs foreach"
    v["nadam_groups"] = trajectory(lambda ps: torch.optim.NAdam(
        [{"params": ps[:2]}, {"params": ps[2:], "lr": 0.002, "momentum_decay": 0.01}], lr=0.01))
    v["radam_groups"] = trajectory(lambda ps: torch.optim.RAdam(
        [{"params": ps[:2], "weight_decay": 0.1}, {"params": ps[2:], "lr": 0.002}], lr=0.01))

    for name, cls, opts in [("adamax", torch.optim.Adamax, dict(lr=0.02)),
                            ("nadam", torch.optim.NAdam, dict(lr=0.01)),
                            ("radam", torch.optim.RAdam, dict(lr=0.01))]:
        holder = {}
        trajectory(lambda ps: holder.setdefault("opt", cls(ps, **opts)))
        sd = holder["opt"].state_dict()
        st = sd["state"][0]
        v[name + "_state_keys"] = list(st.keys())
        v[name + "_step"] = [st["step"].item(), str(st["step"].dtype).replace("torch.", ""), list(st["step"].shape)]
        second = "exp_inf" if name == "adamax" else "exp_avg_sq"
        v[name + "_moment"] = [float(x) for x in sd["state"][2][second].reshape(-1).double().tolist()]
        if name == "nadam":
            v["nadam_mu_product"] = [st["mu_product"].item(), str(st["mu_product"].dtype).replace("torch.", ""),
                                     list(st["mu_product"].shape)]
        opt = cls(problem())
        v[name + "_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
        v[name + "_repr"] = repr(opt)

    for name, cls in [("adamax", torch.optim.Adamax), ("nadam", torch.optim.NAdam), ("radam", torch.optim.RAdam)]:
        v[name + "_error_lr"] = error_text(lambda: cls(problem(), lr=-0.1))
        v[name + "_error_eps"] = error_text(lambda: cls(problem(), eps=-1.0))
        v[name + "_error_beta0"] = error_text(lambda: cls(problem(), betas=(-0.1, 0.999)))
        v[name + "_error_beta1"] = error_text(lambda: cls(problem(), betas=(0.9, 1.0)))
        v[name + "_error_weight_decay"] = error_text(lambda: cls(problem(), weight_decay=-0.1))
    v["nadam_error_momentum_decay"] = error_text(lambda: torch.optim.NAdam(problem(), momentum_decay=-0.1))
    v["adamax_complex"] = complex_trajectory(lambda ps: torch.optim.Adamax(ps, lr=0.05, weight_decay=0.1))
    v["adamax_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.Adamax(ps, foreach=True, lr=0.05, weight_decay=0.1))
    v["nadam_complex"] = complex_trajectory(lambda ps: torch.optim.NAdam(ps, lr=0.05))
    v["nadam_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.NAdam(ps, foreach=True, lr=0.05))
    v["radam_complex"] = complex_trajectory(lambda ps: torch.optim.RAdam(ps, lr=0.05))
    v["radam_complex_foreach"] = complex_trajectory(lambda ps: torch.optim.RAdam(ps, foreach=True, lr=0.05))
    write(os.path.join(HERE, "adamax_nadam_radam_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
