#!/usr/bin/env python3
"""The Python eager PyTorch side of bench/icount/*.spl (and of bench/add_loop.spl), on the
same LibTorch: workloads.py add|method|linear_relu|custom_function N, or workloads.py startup."""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from python_baseline import add_loop  # noqa: E402  (the add workload: simple_vs_python.sh's own)


def method(n):
    a = torch.ones(1)
    start = time.perf_counter()
    for _ in range(n):
        c = a.neg()
    return start


def linear_relu(n):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU())
    x = torch.randn(4, 16)
    start = time.perf_counter()
    for _ in range(n):
        model(x).sum().backward()
    return start


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


def custom_function(n):
    x = torch.ones(16, requires_grad=True)
    start = time.perf_counter()
    for _ in range(n):
        Exp.apply(x).sum().backward()
    return start


def startup():
    a = torch.ones(1)
    print(f"startup: {(a + a).item()}")


if __name__ == "__main__":
    if sys.argv[1] == "startup":
        startup()
        sys.exit(0)
    name, n = sys.argv[1], int(sys.argv[2])
    if name == "add":
        add_loop(n)
        sys.exit(0)
    start = globals()[name](n)
    print(f"{name}: {(time.perf_counter() - start) * 1e9 / n} ns per iteration")
