#!/usr/bin/env python3
"""Writes tests/spl/autograd_functional_fixtures.spl: what torch.autograd.functional gives on
the pin: jacobian, hessian, vjp, jvp, hvp and vhp of elementwise, reducing, matrix and
two-input functions, with create_graph (results that differentiate again) and the refusals
(strict mode, a hessian of a non-scalar, a v of the wrong size or missing).
Run: .venv/bin/python tests/spl/make_autograd_functional_fixtures.py"""
import os
import sys

import torch
from torch.autograd import functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)


def lists(value):
    """Tensors (nested in tuples) as nested lists."""
    if isinstance(value, torch.Tensor):
        return value.tolist()
    return [lists(v) for v in value]


def main():
    v = {}
    x = torch.tensor([0.5, -1.0, 2.0])
    y = torch.tensor([1.5, -0.5])
    ones = torch.ones(3)
    weight = torch.tensor([1.0, 10.0, 100.0])

    def cube(t):
        return t ** 3

    def scalar(t):
        return (t.sin() * t).sum()

    torch.manual_seed(2)
    m = torch.randn(3, 3)

    def layer(t):
        return (m @ t).tanh()

    def two_in_two_out(a, b):
        return (a * 2, a.sum() * b)

    def two_in_scalar(a, b):
        return (a.sum() * b ** 2).sum()

    v["jacobian_cube"] = lists(F.jacobian(cube, x))
    v["jacobian_layer"] = lists(F.jacobian(layer, x))
    v["jacobian_two"] = lists(F.jacobian(two_in_two_out, (x, y)))
    v["hessian_scalar"] = lists(F.hessian(scalar, x))
    v["hessian_layer"] = lists(F.hessian(lambda t: layer(t).sum(), x))
    v["hessian_two"] = lists(F.hessian(two_in_scalar, (x, y)))
    v["vjp_cube"] = lists(F.vjp(cube, x, weight))
    v["vjp_scalar"] = lists(F.vjp(scalar, x))
    v["jvp_layer"] = lists(F.jvp(layer, x, weight))
    v["jvp_two"] = lists(F.jvp(two_in_two_out, (x, y), (ones, torch.tensor([2.0, 3.0]))))
    v["hvp_scalar"] = lists(F.hvp(scalar, x, weight))
    v["vhp_scalar"] = lists(F.vhp(scalar, x, weight))
    v["hvp_two"] = lists(F.hvp(two_in_scalar, (x, y), (weight, torch.tensor([2.0, 3.0]))))

    xg = x.clone().requires_grad_(True)
    jac = F.jacobian(scalar, xg, create_graph=True)
    (dj,) = torch.autograd.grad(jac.sum(), xg)
    v["create_graph"] = [jac.requires_grad, F.jacobian(scalar, xg).requires_grad, dj.tolist()]

    v["detached"] = [F.vjp(cube, x, weight)[0].requires_grad, F.vjp(cube, x, weight, create_graph=True)[0].requires_grad,
                     F.hvp(scalar, x, weight)[1].requires_grad, F.hvp(scalar, x, weight, create_graph=True)[1].requires_grad]
    v["strict_independent"] = error_text(lambda: F.jacobian(lambda a, b: a * 2, (x, y), strict=True))
    v["strict_output"] = error_text(lambda: F.vjp(lambda t: torch.ones(3), x, ones, strict=True))
    v["hessian_not_scalar"] = error_text(lambda: F.hessian(cube, x))
    v["v_size"] = error_text(lambda: F.vjp(cube, x, torch.ones(2)))
    v["v_size_tuple"] = error_text(lambda: F.jvp(two_in_two_out, (x, y), (ones, ones)))
    v["v_missing"] = error_text(lambda: F.vjp(cube, x))
    v["v_count"] = error_text(lambda: F.jvp(two_in_two_out, (x, y), (ones,)))
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "autograd_functional_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
