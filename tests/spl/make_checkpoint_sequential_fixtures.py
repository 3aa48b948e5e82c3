#!/usr/bin/env python3
"""Writes tests/spl/checkpoint_sequential_fixtures.spl: torch.utils.checkpoint.checkpoint_sequential
given an nn.Sequential (Linear, Tanh, Linear, ReLU, Dropout, Linear; weights from fixed values,
dropout seeded), in 2 and 3 segments, use_reentrant True and False, on the pin: the output and
the gradients of the input and of every parameter, for checkpoint_sequential_spec.spl.
Run: .venv/bin/python tests/spl/make_checkpoint_sequential_fixtures.py"""
import os
import sys

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


def model():
    """The Sequential, its Linear weights set from fixed values (no initialiser involved)."""
    seq = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2)).double()
    with torch.no_grad():
        for k, p in enumerate(seq.parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float64).reshape(p.shape) * (0.31 + 0.07 * k)).sin())
    return seq


def main():
    v = {}
    for segments in (2, 3):
        for reentrant in (True, False):
            seq = model()
            x = (torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.5).cos().requires_grad_()
            torch.manual_seed(1)
            out = checkpoint_sequential(seq, segments, x, use_reentrant=reentrant)
            (out * torch.tensor([1.0, -0.5], dtype=torch.float64)).sum().backward()
            key = "s%d_%s" % (segments, "reentrant" if reentrant else "non_reentrant")
            v[key + "_out"] = out.tolist()
            v[key + "_grads"] = [x.grad.tolist()] + [p.grad.tolist() for p in seq.parameters()]
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoint_sequential_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
