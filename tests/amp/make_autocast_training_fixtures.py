#!/usr/bin/env python3
"""Writes tests/amp/autocast_training_fixtures.spl: 30 SGD steps of an MLP and of a small CNN
(conv-relu-pool-linear) trained under CPU bfloat16 autocast as PyTorch's docs do it (float32
master weights; forward and loss inside autocast, backward and step outside), by Python PyTorch
on the pinned wheel: every step's loss and the final parameters.

    .venv/bin/python tests/amp/make_autocast_training_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402

STEPS = 30


def mlp():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def cnn():
    return nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(36, 3))


def train(v, name, make, x_shape, classes, seed):
    """Seeds, builds the model, then draws the batch (inputs, then class targets) and trains."""
    torch.manual_seed(seed)
    model = make()
    x = torch.randn(*x_shape)
    y = torch.randint(0, classes, (x_shape[0],))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses, dtypes = [], []
    for _ in range(STEPS):
        opt.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            out = model(x)
            loss = F.cross_entropy(out, y)
        dtypes = [str(out.dtype).replace("torch.", ""), str(loss.dtype).replace("torch.", "")]
        loss.backward()
        opt.step()
        losses.append(loss.item())
    v[name + "_losses"] = losses
    v[name + "_dtypes"] = dtypes
    v[name + "_params"] = [flat(p) for p in model.parameters()]
    v[name + "_param_dtypes"] = [str(p.dtype).replace("torch.", "") for p in model.parameters()]


def main():
    v = {}
    train(v, "mlp", mlp, [8, 16], 4, seed=31)
    train(v, "cnn", cnn, [6, 1, 8, 8], 3, seed=32)
    write(os.path.join(HERE, "autocast_training_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
