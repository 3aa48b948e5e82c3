#!/usr/bin/env python3
"""Writes tests/optim/lr_scheduler_int_factor_fixtures.spl: what PyTorch does with the factor a
port of `LambdaLR(opt, lambda s: min(1.0, (s + 1) / WARMUP))` computes in Simple, where `/` on two
integers truncates: the integer `min(1.0, (s + 1) // WARMUP)`, so a learning rate of 0 for the
first WARMUP - 1 steps; the float factor the Python program meant, for contrast; and
MultiplicativeLR given an integer factor. lr_scheduler_int_factor_spec.spl runs the same in
Simple. SGD(lr=0.1, momentum=0.9) over one group; the lr after construction and each of 20 steps.
Run: .venv/bin/python tests/optim/make_lr_scheduler_int_factor_fixtures.py"""
import os
import sys
import warnings

import torch
from torch.optim import lr_scheduler as L

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 20
WARMUP = 10

warnings.filterwarnings("ignore")


def sgd():
    return torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1, momentum=0.9)


def lrs(make):
    opt = sgd()
    s = make(opt)
    out = [opt.param_groups[0]["lr"]]
    for _ in range(STEPS):
        opt.step()
        s.step()
        out.append(opt.param_groups[0]["lr"])
    return out


def main():
    values = {
        # Simple's `(s + 1) / WARMUP` on i64s is Python's `(s + 1) // WARMUP` for s >= 0
        "lambda_truncated_lrs": lrs(lambda o: L.LambdaLR(o, lambda s: min(1.0, (s + 1) // WARMUP))),
        "lambda_float_lrs": lrs(lambda o: L.LambdaLR(o, lambda s: min(1.0, (s + 1) / WARMUP))),
        "multiplicative_int_lrs": lrs(lambda o: L.MultiplicativeLR(o, lambda e: 1 if e < 5 else 0)),
    }
    write(os.path.join(HERE, "lr_scheduler_int_factor_fixtures.spl"), __file__, values)


if __name__ == "__main__":
    main()
