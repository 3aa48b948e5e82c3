#!/usr/bin/env python3
"""The Python eager PyTorch side of bench/icount/*.spl, on the same LibTorch:
workloads.py add|method|linear_relu N."""
import sys
import time

import torch


def add(n):
    a, b = torch.ones(1), torch.ones(1)
    start = time.perf_counter()
    for _ in range(n):
        c = a + b
    return start


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


if __name__ == "__main__":
    name, n = sys.argv[1], int(sys.argv[2])
    start = globals()[name](n)
    print(f"{name}: {(time.perf_counter() - start) * 1e9 / n} ns per iteration")
