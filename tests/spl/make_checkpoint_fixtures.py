#!/usr/bin/env python3
"""Writes tests/spl/checkpoint_fixtures.spl: torch.utils.checkpoint on the pin, for
checkpoint_spec.spl: the gradients of a block with dropout without checkpointing and with it
(use_reentrant True and False), of checkpoint_sequential over three segments, a non-tensor
argument passed through, and the refusal under autograd.grad.
Run: .venv/bin/python tests/spl/make_checkpoint_fixtures.py"""
import os
import sys

import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


def params():
    """Weights from fixed values (no initialiser involved), each a leaf that requires grad."""
    w1 = (torch.arange(32, dtype=torch.float64).reshape(8, 4) * 0.37).sin().requires_grad_()
    b1 = (torch.arange(8, dtype=torch.float64) * 0.11).cos().requires_grad_()
    w2 = (torch.arange(16, dtype=torch.float64).reshape(2, 8) * 0.23).cos().requires_grad_()
    return w1, b1, w2


def block(x, w1, b1, w2, scale):
    h = torch.dropout((x @ w1.t() + b1).relu(), 0.5, True)
    return (h @ w2.t()) * scale


def run(x, weights, use):
    torch.manual_seed(1)
    if use is None:
        out = block(x, *weights, 2.0)
    else:
        out = checkpoint(block, x, *weights, 2.0, use_reentrant=use)
    out.sum().backward()
    return [t.grad.tolist() for t in (x,) + weights]


def main():
    x0 = (torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.5).sin()
    v = {}
    for name, use in (("plain", None), ("reentrant", True), ("non_reentrant", False)):
        x = x0.clone().requires_grad_()
        v[name] = run(x, params(), use)

    # checkpoint_sequential: six functions in three segments.
    w1, b1, w2 = params()
    fns = [lambda t: t @ w1.t() + b1, torch.tanh, lambda t: t * 1.5, torch.sin, lambda t: t @ w2.t(), torch.relu]
    x = x0.clone().requires_grad_()
    checkpoint_sequential(fns, 3, x, use_reentrant=True).sum().backward()
    v["sequential"] = [t.grad.tolist() for t in (x, w1, b1, w2)]

    # Under autograd.grad the reentrant checkpoint refuses.
    x = x0.clone().requires_grad_()
    w1, b1, w2 = params()
    out = checkpoint(block, x, w1, b1, w2, 2.0, use_reentrant=True)
    try:
        torch.autograd.grad(out.sum(), x)
        v["under_grad"] = None
    except RuntimeError as e:
        v["under_grad"] = str(e)
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoint_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
