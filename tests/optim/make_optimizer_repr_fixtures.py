#!/usr/bin/env python3
"""Writes tests/optim/optimizer_repr_fixtures.spl: optimizer reprs whose options Python prints
in positional form where a shortest-digits printer would not (`0.0001`, `1000000.0`) or in
exponent form (`1e-08`), one and several groups, by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/optim/make_optimizer_repr_fixtures.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402
from trajectory import problem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    v = {}
    v["adam_small"] = repr(torch.optim.Adam(problem(), lr=1e-4, eps=1e-8))
    w1, b1, w2, b2 = problem()
    v["adam_groups"] = repr(torch.optim.Adam([{"params": [w1, b1]}, {"params": [w2, b2], "lr": 1e-5, "betas": (0.5, 0.9999)}], lr=1e-4, eps=1e-8))
    v["sgd_large"] = repr(torch.optim.SGD(problem(), lr=1e-4, momentum=0.9, weight_decay=1e6))
    v["adagrad_small"] = repr(torch.optim.Adagrad(problem(), lr=1e-4, eps=1e-8, lr_decay=2.5e-5))
    v["asgd_small"] = repr(torch.optim.ASGD(problem(), lr=1e-4))
    v["rprop_small"] = repr(torch.optim.Rprop(problem(), lr=1e-4, step_sizes=(1e-8, 1e6)))
    write(os.path.join(HERE, "optimizer_repr_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
