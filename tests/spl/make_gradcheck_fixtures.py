#!/usr/bin/env python3
"""Writes tests/spl/gradcheck_fixtures.spl: torch.autograd.gradcheck and gradgradcheck (slow mode)
on the pin: the verdict for twelve functions of ATen operators (float64 inputs drawn after
manual_seed(0)), the error for a function whose gradient is wrong (one factor detached), the
same with raise_exception=False, and the refusal of inputs that do not require grad.
Run: .venv/bin/python tests/spl/make_gradcheck_fixtures.py"""
import os
import sys

import torch
from torch.autograd import gradcheck, gradgradcheck

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)


def functions(x, w, m):
    """name -> (function, inputs): the same list as gradcheck_spec.spl's."""
    return {
        "sin_times": (lambda t: t.sin() * t, [x]),
        "exp": (lambda t: t.exp(), [x]),
        "tanh_matmul": (lambda a, b: (b @ a).tanh(), [x, w]),
        "softmax": (lambda t: t.softmax(0), [x]),
        "log_softmax": (lambda t: t.log_softmax(0), [x]),
        "sigmoid": (lambda t: t.sigmoid(), [x]),
        "cumsum": (lambda t: t.cumsum(0), [x]),
        "norm": (lambda t: t.norm(), [x]),
        "pow": (lambda t: t.pow(3), [x]),
        "mm": (lambda a, b: a @ b, [m, w]),
        "mean_sq": (lambda a: (a * a).mean(1), [m]),
        "two_outputs": (lambda a, b: (a * b.sum(), b.cos()), [x, w]),
    }


def main():
    v = {}
    torch.manual_seed(0)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    m = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    cases = functions(x, w, m)
    v["names"] = list(cases)
    v["gradcheck"] = [gradcheck(f, tuple(args)) for f, args in cases.values()]
    v["gradgradcheck"] = [gradgradcheck(f, tuple(args)) for f, args in
                          [cases["sin_times"], cases["tanh_matmul"], cases["softmax"], cases["pow"]]]
    v["wrong"] = error_text(lambda: gradcheck(lambda t: t * t.detach(), (x,)))
    v["wrong_quiet"] = gradcheck(lambda t: t * t.detach(), (x,), raise_exception=False)
    v["no_grad_input"] = error_text(lambda: gradcheck(lambda t: t * 2, (torch.ones(2, dtype=torch.float64),)))
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gradcheck_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
