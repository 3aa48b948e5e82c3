#!/usr/bin/env python3
"""Writes tests/spl/function_ctx_attrs_fixtures.spl: a custom torch.autograd.Function that keeps
a float, an int, a list and a tensor on ctx as attributes (`ctx.k = k`) and uses them in
backward, on the pin, for function_ctx_attrs_spec.spl (which defines the same Function), and
PyTorch's message for reading an attribute never set.
Run: .venv/bin/python tests/spl/make_function_ctx_attrs_fixtures.py"""
import os
import sys

import torch
from torch.autograd import Function

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


class ScaledShift(Function):
    """y = (x * scale) ** power + sum(weights) * shift; backward reads x, scale, power and
    weights from ctx (a tensor, a float, an int, a list)."""

    @staticmethod
    def forward(ctx, x, scale, power, weights, shift):
        ctx.x = x
        ctx.scale = scale
        ctx.power = power
        ctx.weights = weights
        ctx.shift = shift
        return (x * scale).pow(power) + shift * sum(weights)

    @staticmethod
    def backward(ctx, g):
        x_scaled = ctx.x * ctx.scale
        gx = g * ctx.power * x_scaled.pow(ctx.power - 1) * ctx.scale
        gshift = g * sum(ctx.weights)
        return gx, None, None, None, gshift


class Forgets(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2.0

    @staticmethod
    def backward(ctx, g):
        return g * ctx.never_set


def inputs():
    x = torch.tensor([0.5, -1.25, 2.0], dtype=torch.float64, requires_grad=True)
    shift = torch.tensor([0.25, -0.5, 1.5], dtype=torch.float64, requires_grad=True)
    return x, shift


def main():
    v = {}
    x, shift = inputs()
    y = ScaledShift.apply(x, 1.5, 3, [0.5, 2.0, -1.0], shift)
    (y * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum().backward()
    v["out"] = y.tolist()
    v["grad_x"] = x.grad.tolist()
    v["grad_shift"] = shift.grad.tolist()

    x, _ = inputs()
    try:
        Forgets.apply(x).sum().backward()
        v["missing"] = None
    except AttributeError as e:
        v["missing"] = str(e)
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "function_ctx_attrs_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
