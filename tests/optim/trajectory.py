"""The fixed problem every optimizer fixture runs (tests/optim/problem.spl is the same in
Simple): a 5-8-3 tanh MLP as four plain tensors with fixed (non-random) weights and data,
mean-squared error, 100 steps; parameters recorded after every 10th step."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat  # noqa: E402


def problem():
    w1 = (torch.arange(40, dtype=torch.float32).sin().reshape(8, 5) * 0.5).requires_grad_()
    b1 = (torch.arange(8, dtype=torch.float32).cos() * 0.1).requires_grad_()
    w2 = ((torch.arange(24, dtype=torch.float32) * 0.7).sin().reshape(3, 8) * 0.5).requires_grad_()
    b2 = torch.zeros(3).requires_grad_()
    return [w1, b1, w2, b2]


def data():
    x = (torch.arange(80, dtype=torch.float32) * 0.37).cos().reshape(16, 5)
    y = (torch.arange(48, dtype=torch.float32) * 0.21).sin().reshape(16, 3)
    return x, y


def loss_of(params, x, y):
    w1, b1, w2, b2 = params
    hidden = torch.tanh(x @ w1.t() + b1)
    return ((hidden @ w2.t() + b2 - y) ** 2).mean()


def trajectory(make_opt, steps=100, every=10):
    """make_opt(params) -> optimizer. Returns [[flat(p) for p in params] every `every` steps]."""
    params = problem()
    x, y = data()
    opt = make_opt(params)
    snaps = []
    for i in range(1, steps + 1):
        opt.zero_grad()
        loss_of(params, x, y).backward()
        opt.step()
        if i % every == 0:
            snaps.append([flat(p) for p in params])
    return snaps


def complex_trajectory(make_opt, steps=20):
    """A complex parameter (6 values) pulled toward a complex target: optimizers update
    complex tensors through their real views. The parameter, as real pairs, after `steps`."""
    p = torch.complex(torch.arange(6, dtype=torch.float32).sin(), torch.arange(6, dtype=torch.float32).cos()).requires_grad_()
    t = torch.complex(torch.arange(6, dtype=torch.float32) * 0.3, torch.arange(6, dtype=torch.float32) * -0.2)
    opt = make_opt([p])
    for _ in range(steps):
        opt.zero_grad()
        ((p - t).abs() ** 2).sum().backward()
        opt.step()
    return torch.view_as_real(p.detach()).reshape(-1).double().tolist()
