#!/usr/bin/env python3
"""Writes tests/optim/lbfgs_fixtures.spl: torch.optim.LBFGS trajectories on the fixed problem
(trajectory.py's problem, data and loss), 20 steps of step(closure), with and without the
strong-Wolfe line search; the loss each step returns and the final func_evals / n_iter (so a
different path through the search shows); state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_lbfgs_fixtures.py"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import data, loss_of, problem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(),
    "strong_wolfe": dict(line_search_fn="strong_wolfe"),
    # a short memory that fills and shifts; fixed steps of 0.5 (t a float, not 1)
    "history": dict(lr=0.5, max_iter=5, history_size=3),
    "wolfe_history": dict(line_search_fn="strong_wolfe", history_size=4, max_iter=7, tolerance_change=1e-5),
    # few evaluations: the line search runs out of them
    "wolfe_max_eval": dict(line_search_fn="strong_wolfe", lr=0.8, max_iter=10, max_eval=4),
    "wolfe_tolerance_grad": dict(line_search_fn="strong_wolfe", tolerance_grad=1e-3),
    # too short a first step: the search extrapolates, runs out of evaluations, and takes
    # the midpoint where the cubic has no minimum
    "wolfe_extrapolate": dict(line_search_fn="strong_wolfe", lr=0.01),
    # too long a first step (an int lr, as PyTorch keeps it): the zoom phase, its moves away
    # from the bracket's ends, and the swap of the bracket's ends
    "wolfe_zoom": dict(line_search_fn="strong_wolfe", lr=20),
}


def lbfgs_trajectory(make_opt, steps=20, negate=False, reload_at=None):
    """make_opt(params) -> LBFGS. Each step runs opt.step(closure); the closure zeroes the
    gradients, evaluates the loss (negated with `negate`, for maximize), runs backward and
    returns it. Returns {params: [[flat(p)] per step], losses, func_evals, n_iter}."""
    params = problem()
    x, y = data()
    opt = make_opt(params)

    def closure():
        opt.zero_grad()
        loss = loss_of(params, x, y)
        if negate:
            loss = -loss
        loss.backward()
        return loss
    snaps, losses = [], []
    for i in range(1, steps + 1):
        if i == reload_at:
            sd = opt.state_dict()
            opt = make_opt(params)
            opt.load_state_dict(sd)
        losses.append(float(opt.step(closure)))
        snaps.append([flat(p) for p in params])
    st = opt.state[params[0]]
    return {"params": snaps, "losses": losses, "func_evals": st["func_evals"], "n_iter": st["n_iter"]}


def record(v, name, result):
    for k, val in result.items():
        v[name + "_" + k] = val


def main():
    # PyTorch's own float(closure()) warns about a loss that requires grad
    warnings.filterwarnings("ignore", "Converting a tensor with requires_grad")
    v = {}
    for name, opts in CASES.items():
        record(v, "lbfgs_" + name, lbfgs_trajectory(lambda ps: torch.optim.LBFGS(ps, **opts)))
    record(v, "lbfgs_maximize", lbfgs_trajectory(lambda ps: torch.optim.LBFGS(ps, maximize=True), negate=True))
    record(v, "lbfgs_maximize_wolfe", lbfgs_trajectory(
        lambda ps: torch.optim.LBFGS(ps, maximize=True, line_search_fn="strong_wolfe"), negate=True))
    # the round trip continues the same trajectory (checked here against PyTorch itself too)
    for name in ["plain", "strong_wolfe"]:
        again = lbfgs_trajectory(lambda ps: torch.optim.LBFGS(ps, **CASES[name]), reload_at=5)
        assert again["params"] == v["lbfgs_" + name + "_params"], name

    opt = torch.optim.LBFGS(problem(), line_search_fn="strong_wolfe")
    v["lbfgs_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["lbfgs_repr"] = repr(opt)
    v["lbfgs_default_repr"] = repr(torch.optim.LBFGS(problem(), max_iter=8))
    ps = problem()
    x, y = data()
    opt = torch.optim.LBFGS(ps, max_iter=3)

    def closure():
        opt.zero_grad()
        loss = loss_of(ps, x, y)
        loss.backward()
        return loss
    opt.step(closure)
    st = opt.state_dict()["state"]
    v["lbfgs_state_params"] = list(st.keys())
    v["lbfgs_state_keys"] = list(st[0].keys())
    v["lbfgs_state_history"] = len(st[0]["old_dirs"])
    v["lbfgs_state_al_len"] = len(st[0]["al"])
    v["lbfgs_error_lr"] = error_text(lambda: torch.optim.LBFGS(problem(), lr=-0.1))
    p = problem()
    v["lbfgs_error_groups"] = error_text(lambda: torch.optim.LBFGS([{"params": p[:2]}, {"params": p[2:]}]))
    v["lbfgs_error_no_closure"] = error_text(lambda: torch.optim.LBFGS(problem()).step())
    ps2 = problem()
    opt2 = torch.optim.LBFGS(ps2, line_search_fn="backtracking")

    def closure2():
        opt2.zero_grad()
        loss = loss_of(ps2, x, y)
        loss.backward()
        return loss
    v["lbfgs_error_line_search"] = error_text(lambda: opt2.step(closure2))
    write(os.path.join(HERE, "lbfgs_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
