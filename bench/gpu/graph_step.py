#!/usr/bin/env python3
"""Python's side of bench/gpu/graph_step.spl: the same MLP step with capturable Adam, eager and
CUDA-graphed, on the same GPU and LibTorch build; each timing ends with a synchronize."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def setup():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=0.001, capturable=True)
    return model, opt, torch.randn(64, 784).cuda(), torch.randint(0, 10, (64,)).cuda()


def timed(name, step, steps=500):
    for _ in range(10):
        step()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    print(f"python {name}: {(time.perf_counter() - start) * 1e6 / steps} us per step")


def eager():
    model, opt, x, y = setup()

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        opt.step()
    timed("cuda eager mlp step", step)


def graphed():
    model, opt, x, y = setup()
    static_x, static_y = x.clone(), y.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(model(static_x), static_y).backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(g):
        F.cross_entropy(model(static_x), static_y).backward()
        opt.step()

    def step():
        static_x.copy_(x)
        static_y.copy_(y)
        g.replay()
    timed("cuda graph mlp step", step)


if __name__ == "__main__":
    eager()
    graphed()
