#!/usr/bin/env python3
"""The Python eager PyTorch side of bench/simple_vs_python.sh: the same
100,000-add loop and the same 784-256-10 MLP SGD step, on the same LibTorch."""
import time

import torch


def add_loop(n=100000):
    a, b = torch.ones(1), torch.ones(1)
    for _ in range(1000):
        a + b
    start = time.perf_counter()
    for _ in range(n):
        c = a + b
    print(f"python add loop: {(time.perf_counter() - start) * 1e9 / n} ns per add")


def mlp_step():
    torch.manual_seed(0)
    x = torch.randn(64, 784)
    labels = torch.randint(0, 10, (64,))
    w1 = (torch.randn(784, 256) * 0.05).requires_grad_()
    b1 = torch.zeros(256, requires_grad=True)
    w2 = (torch.randn(256, 10) * 0.05).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
    params = [w1, b1, w2, b2]

    def step():
        logits = (x @ w1 + b1).relu() @ w2 + b2
        loss = torch.nn.functional.cross_entropy(logits, labels)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p.sub_(p.grad * 0.01)
                p.grad = None
        return loss.item()

    for _ in range(5):
        step()
    steps = 50
    start = time.perf_counter()
    for _ in range(steps):
        step()
    print(f"python mlp step: {(time.perf_counter() - start) * 1e6 / steps} us per step")


if __name__ == "__main__":
    add_loop()
    mlp_step()
