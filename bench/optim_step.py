#!/usr/bin/env python3
"""The Python side of bench/optim_step.spl: torch.optim.Adam over the same 9.8M parameters
in 24 tensors, foreach and fused (and the CPU default, the per-tensor loop, for reference)."""
import time

import torch


def model():
    params = []
    for _ in range(12):
        params.append(torch.randn(800, 1024, requires_grad=True))
        params.append(torch.randn(1024, requires_grad=True))
    return params


def with_grads(params):
    for p in params:
        (p * torch.randn(p.shape)).sum().backward()
    return params


def time_steps(name, opt):
    for _ in range(3):
        opt.step()
    steps = 20
    start = time.perf_counter()
    for _ in range(steps):
        opt.step()
    print(f"python {name}: {(time.perf_counter() - start) * 1e6 / steps} us per step")


if __name__ == "__main__":
    torch.manual_seed(0)
    time_steps("adam loop", torch.optim.Adam(with_grads(model()), lr=1e-3))
    time_steps("adam foreach", torch.optim.Adam(with_grads(model()), lr=1e-3, foreach=True))
    time_steps("adam fused", torch.optim.Adam(with_grads(model()), lr=1e-3, fused=True))
