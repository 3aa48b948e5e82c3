#!/usr/bin/env python3
"""Python eager's side of bench/gpu/gpu_step.spl: the same products, models, batches and
manual SGD step, on the same GPU and LibTorch build."""
import os
import sys
import time

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from nn_step import time_steps  # noqa: E402  (the CPU benchmark's step, timed on CUDA)


def matmul_tflops(dtype):
    a = torch.randn(4096, 4096).cuda().to(dtype)
    b = torch.randn(4096, 4096).cuda().to(dtype)
    for _ in range(3):
        (a @ b).sum().item()
    reps = 50
    start = time.perf_counter()
    c = a @ b
    for _ in range(1, reps):
        c = a @ b
    c.sum().item()
    seconds = time.perf_counter() - start
    return 2.0 * 4096**3 * reps / seconds / 1e12


if __name__ == "__main__":
    torch.manual_seed(0)
    for dtype in ("float16", "bfloat16"):
        print(f"python matmul 4096 {dtype}: {matmul_tflops(getattr(torch, dtype))} TFLOP/s")
    time_steps("cuda mlp", nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)),
               torch.randn(64, 784), torch.randint(0, 10, (64,)), device="cuda", warmup=10, steps=200)
    time_steps("cuda cnn", nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                         nn.Flatten(), nn.Linear(32 * 7 * 7, 10)),
               torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,)), device="cuda", warmup=10, steps=200)
