"""CUDA graphs on the GPU (graphs_fixtures.spl), as PyTorch's documentation captures them: a few
operations captured and replayed on new inputs; a whole training step of a small MLP (forward,
MSE loss, backward, capturable Adam) warmed up on a side stream, captured, then replayed on 10
batches: each replay's loss and the final weights. CUDA only."""
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402


def batch(i):
    x = (torch.arange(128, dtype=torch.float32) * (0.1 * (i + 1))).cos().reshape(8, 16)
    y = (torch.arange(32, dtype=torch.float32) * (0.2 * (i + 1))).sin().reshape(8, 4)
    return x.cuda(), y.cuda()


def few_ops():
    static_x = torch.zeros(6, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_y = static_x * 2 + 1
    out = []
    for i in range(3):
        static_x.copy_(torch.arange(6, dtype=torch.float32) * (i + 1))
        g.replay()
        out.append(static_y.cpu().tolist())
    return out


def training_step():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=0.01, capturable=True)
    static_x, static_y = batch(-1)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            nn.functional.mse_loss(model(static_x), static_y).backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(g):
        static_loss = nn.functional.mse_loss(model(static_x), static_y)
        static_loss.backward()
        opt.step()
    losses = []
    for i in range(10):
        x, y = batch(i)
        static_x.copy_(x)
        static_y.copy_(y)
        g.replay()
        losses.append(static_loss.item())
    return losses, [flat(p) for p in model.parameters()]


def make():
    if DEVICE != "cuda":
        return {"cuda": False}
    losses, weights = training_step()
    return {"cuda": True, "few_ops": few_ops(), "step_losses": losses, "step_weights": weights}


if __name__ == "__main__":
    main("tests/cuda/make_graphs_fixtures.py", "graphs", make)
