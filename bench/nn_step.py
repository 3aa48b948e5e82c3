#!/usr/bin/env python3
"""The Python eager torch.nn side of bench/nn_step.spl: the same models, batches and
manual SGD step, on the same LibTorch."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def step(model, params, x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in params:
            p.sub_(p.grad * 0.01)
            p.grad = None
    return loss.item()


def time_steps(name, model, x, y, device="cpu", warmup=5, steps=30):
    model.to(device)
    x, y = x.to(device), y.to(device)
    params = list(model.parameters())
    for _ in range(warmup):
        step(model, params, x, y)
    start = time.perf_counter()
    for _ in range(steps):
        step(model, params, x, y)
    print(f"python {name} step: {(time.perf_counter() - start) * 1e6 / steps} us per step")


if __name__ == "__main__":
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    time_steps("nn mlp", mlp, torch.randn(64, 784), torch.randint(0, 10, (64,)))
    cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(32 * 7 * 7, 10))
    time_steps("nn cnn", cnn, torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,)))
