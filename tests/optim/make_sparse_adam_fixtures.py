#!/usr/bin/env python3
"""Writes tests/optim/sparse_adam_fixtures.spl: torch.optim.SparseAdam on a small problem
with sparse gradients (two nn.Embedding(sparse=True) tables with fixed weights, rows looked
up by a fixed schedule, one of them twice, so that a step touches some rows and not others),
each option that changes the update; groups; state_dict structure and repr; error texts.
Run: .venv/bin/python tests/optim/make_sparse_adam_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import problem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "plain": dict(),
    "lr": dict(lr=0.05),
    "betas": dict(lr=0.05, betas=(0.5, 0.9), eps=1e-4),
    "maximize": dict(lr=0.01, maximize=True),
}


def sparse_problem():
    """Two embedding tables (10x4 and 6x3), fixed weights, sparse gradients."""
    a = torch.nn.Embedding.from_pretrained((torch.arange(40, dtype=torch.float32) * 0.3).sin().reshape(10, 4), freeze=False, sparse=True)
    b = torch.nn.Embedding.from_pretrained((torch.arange(18, dtype=torch.float32) * 0.7).cos().reshape(6, 3), freeze=False, sparse=True)
    return a, b


def sparse_loss(a, b, i):
    ia = torch.tensor([(3 * i) % 10, (3 * i + 1) % 10, (3 * i + 5) % 10, (3 * i) % 10])
    ib = torch.tensor([(2 * i) % 6, (2 * i + 3) % 6])
    ta = (torch.arange(16, dtype=torch.float32) * 0.2).cos().reshape(4, 4)
    tb = (torch.arange(6, dtype=torch.float32) * 0.5).sin().reshape(2, 3)
    return ((a(ia) - ta) ** 2).sum() + ((b(ib) - tb) ** 2).sum()


def sparse_trajectory(make_opt, steps=50, every=10):
    a, b = sparse_problem()
    opt = make_opt([a.weight, b.weight])
    snaps = []
    for i in range(1, steps + 1):
        opt.zero_grad()
        sparse_loss(a, b, i).backward()
        opt.step()
        if i % every == 0:
            snaps.append([flat(a.weight), flat(b.weight)])
    return snaps


def main():
    v = {}
    for name, opts in CASES.items():
        v["sparse_adam_" + name] = sparse_trajectory(lambda ps: torch.optim.SparseAdam(ps, **opts))
    v["sparse_adam_groups"] = sparse_trajectory(lambda ps: torch.optim.SparseAdam(
        [{"params": ps[:1]}, {"params": ps[1:], "lr": 0.1, "betas": (0.8, 0.99)}], lr=0.01))
    a, b = sparse_problem()
    opt = torch.optim.SparseAdam([a.weight, b.weight], lr=0.05, betas=(0.5, 0.9), eps=1e-4)
    v["sparse_adam_group_keys"] = list(opt.state_dict()["param_groups"][0].keys())
    v["sparse_adam_repr"] = repr(opt)
    v["sparse_adam_default_repr"] = repr(torch.optim.SparseAdam([a.weight]))
    sparse_loss(a, b, 1).backward()
    opt.step()
    st = opt.state_dict()["state"][0]
    v["sparse_adam_state_keys"] = list(st.keys())
    v["sparse_adam_state_step"] = st["step"]
    v["sparse_adam_exp_avg"] = flat(st["exp_avg"])
    v["sparse_adam_error_lr"] = error_text(lambda: torch.optim.SparseAdam([a.weight], lr=0.0))
    v["sparse_adam_error_eps"] = error_text(lambda: torch.optim.SparseAdam([a.weight], eps=0.0))
    v["sparse_adam_error_beta0"] = error_text(lambda: torch.optim.SparseAdam([a.weight], betas=(1.0, 0.999)))
    v["sparse_adam_error_beta1"] = error_text(lambda: torch.optim.SparseAdam([a.weight], betas=(0.9, -0.1)))
    c = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
    v["sparse_adam_error_complex"] = error_text(lambda: torch.optim.SparseAdam([{"params": [a.weight]}, {"params": [b.weight, c]}]))

    s = torch.sparse_coo_tensor([[0]], [1.0], (3,), check_invariants=True).requires_grad_()
    v["sparse_adam_error_sparse_param"] = error_text(lambda: torch.optim.SparseAdam([a.weight, s]))

    def dense_step():
        ps = problem()
        opt = torch.optim.SparseAdam(ps)
        sum(p.sum() for p in ps).backward()
        opt.step()
    v["sparse_adam_error_dense"] = error_text(dense_step)

    # The other optimizers of this family refuse sparse gradients, at the step.
    def sparse_step(make):
        a, b = sparse_problem()
        opt = make([a.weight, b.weight])
        sparse_loss(a, b, 1).backward()
        opt.step()
    for name, cls in [("asgd", torch.optim.ASGD), ("rprop", torch.optim.Rprop), ("adafactor", torch.optim.Adafactor), ("muon", torch.optim.Muon)]:
        v["sparse_error_" + name] = error_text(lambda: sparse_step(cls))
    write(os.path.join(HERE, "sparse_adam_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
