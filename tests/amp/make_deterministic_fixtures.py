#!/usr/bin/env python3
"""Writes tests/amp/deterministic_fixtures.spl: what torch.use_deterministic_algorithms(True)
does on the CPU in the pinned PyTorch: repeated index_add_/scatter_add_ and a small training
run, the operators that refuse (their messages), warn_only, and fill_uninitialized_memory.

    .venv/bin/python tests/amp/make_deterministic_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402


def accumulations():
    """index_add_ and scatter_add_ of 10000 values into 10 slots (many duplicate indices)."""
    torch.manual_seed(0)
    idx = torch.randint(0, 10, (10000,))
    src = torch.randn(10000)
    a = torch.zeros(10).index_add_(0, idx, src)
    b = torch.zeros(10).scatter_add_(0, idx, src)
    return flat(a), flat(b)


def training():
    """Five SGD steps of a 4-8-1 MLP on MSE: the losses and the final parameters."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    x = torch.randn(16, 4)
    y = torch.randn(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [flat(p) for p in model.parameters()]


def put():
    return torch.zeros(5).put_(torch.tensor([0, 3]), torch.tensor([1.0, 2.0]))


def unpool():
    x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    return F.max_unpool2d(x, torch.tensor([[[[0, 3], [8, 15]]]]), 2)


v = {}
torch.use_deterministic_algorithms(True)
v["index_add"], v["scatter_add"] = accumulations()
v["losses"], v["params"] = training()
v["err_put"] = error_text(put)
v["err_unpool"] = error_text(unpool)
v["empty_float"] = flat(torch.empty(3))
v["empty_double"] = flat(torch.empty(2, dtype=torch.float64))
v["empty_long"] = torch.empty(3, dtype=torch.long).tolist()
v["resized"] = flat(torch.ones(2).resize_(4))
torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    v["put"] = flat(put())
    v["unpool"] = flat(unpool())
v["warnings"] = [str(w.message) for w in caught]
torch.use_deterministic_algorithms(False)
write(os.path.join(HERE, "deterministic_fixtures.spl"), __file__, v)
