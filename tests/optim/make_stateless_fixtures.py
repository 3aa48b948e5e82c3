#!/usr/bin/env python3
"""Writes tests/optim/stateless_fixtures.spl: torch.optim.swap_in_optimizer_params_and_state on
the fixed problem (trajectory.py): Adam after 5 steps steps other parameters with a saved
state_dict's state and options for 3 steps inside the block; the swapped-in parameters, the
saved state's tensors (changed in place), the live parameters and state untouched, the live
options back after the block, then the live run going on; PyTorch's messages for bad input.
Run: .venv/bin/python tests/optim/make_stateless_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import data, loss_of, problem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(opt, params, x, y, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss_of(params, x, y).backward()
        opt.step()


def main():
    v = {}
    params = problem()
    x, y = data()
    opt = torch.optim.Adam(params, lr=0.01)
    run(opt, params, x, y, 5)
    saved = opt.state_dict()
    saved = {"state": {k: {n: t.clone() for n, t in s.items()} for k, s in saved["state"].items()},
             "param_groups": [dict(g, lr=0.05) for g in saved["param_groups"]]}
    others = {name: (p.detach() * 0.5).requires_grad_() for name, p in zip(["w1", "b1", "w2", "b2"], params)}
    live_before = [flat(p) for p in params]
    with torch.optim.swap_in_optimizer_params_and_state(opt, others, saved):
        inside_lr = opt.param_groups[0]["lr"]
        run(opt, list(others.values()), x, y, 3)
    v["swapped_params"] = [flat(p) for p in others.values()]
    v["saved_state"] = [[flat(s["exp_avg"]), flat(s["exp_avg_sq"]), float(s["step"])] for _, s in sorted(saved["state"].items())]
    v["live_untouched"] = [flat(p) for p in params] == live_before
    v["lrs"] = [inside_lr, opt.param_groups[0]["lr"]]
    v["live_steps"] = [float(opt.state[p]["step"]) for p in params]
    run(opt, params, x, y, 2)
    v["live_after"] = [flat(p) for p in params]
    fresh = torch.optim.Adam(problem(), lr=0.01)
    sd = opt.state_dict()
    v["errors"] = [
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(fresh, others, sd).__enter__()),
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(opt, others, {"state": [], "param_groups": []}).__enter__()),
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(opt, others, {"state": sd["state"], "param_groups": []}).__enter__()),
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(
            opt, others, {"state": sd["state"], "param_groups": [dict(sd["param_groups"][0], extra=1)]}).__enter__()),
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(
            opt, others, {"state": {**sd["state"], 7: {}}, "param_groups": sd["param_groups"]}).__enter__()),
        error_text(lambda: torch.optim.swap_in_optimizer_params_and_state(
            opt, dict(list(others.items())[:2]), sd).__enter__()),
    ]
    write(os.path.join(HERE, "stateless_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
