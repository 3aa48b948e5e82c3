#!/usr/bin/env python3
"""Writes tests/spl/autograd_fixtures.spl: what torch.autograd.grad gives on the pin: first,
second and third derivatives (create_graph), several inputs and outputs, grad_outputs,
allow_unused and materialize_grads, retain_graph, a gradient penalty through a double backward,
`.grad` left untouched, and the refusals with their messages.
Run: .venv/bin/python tests/spl/make_autograd_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)

grad = torch.autograd.grad


def main():
    v = {}
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (g1,) = grad((x ** 3).sum(), x, create_graph=True)
    (g2,) = grad(g1.sum(), x, create_graph=True)
    (g3,) = grad(g2.sum(), x)
    v["cube"] = [g1.tolist(), g2.tolist(), g3.tolist(), g1.requires_grad, g3.requires_grad]
    (s1,) = grad(x.sin().sum(), x, create_graph=True)
    (s2,) = grad(s1.sum(), x, create_graph=True)
    (s3,) = grad(s2.sum(), x)
    v["sin"] = [s1.tolist(), s2.tolist(), s3.tolist()]

    torch.manual_seed(0)
    a = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    gx, gw = grad((a @ w).tanh().sum(), [a, w])
    v["two_inputs"] = [gx.tolist(), gw.tolist(), a.grad is None, w.grad is None]

    weight = torch.tensor([1.0, 10.0, 100.0])
    (gv,) = grad(x * x, x, grad_outputs=weight)
    v["grad_outputs"] = gv.tolist()
    ga = grad([x.sum(), (x * x).sum()], x, grad_outputs=[torch.tensor(2.0), torch.tensor(3.0)])
    v["two_outputs"] = ga[0].tolist()

    u = torch.ones(2, requires_grad=True)
    r = grad((x * 2).sum(), [x, u], allow_unused=True)
    v["allow_unused"] = [r[0].tolist(), r[1] is None]
    m = grad((x * 2).sum(), [x, u], materialize_grads=True)
    v["materialize"] = [m[0].tolist(), m[1].tolist(), m[1].requires_grad]
    m2 = grad((x * 2).sum(), [x, u], materialize_grads=True, create_graph=True)
    v["materialize_create_graph"] = [m2[1].tolist(), m2[1].requires_grad]

    y = (x * x).sum()
    first = grad(y, x, retain_graph=True)[0]
    second = grad(y, x)[0]
    v["retain_graph"] = [first.tolist(), second.tolist()]
    v["second_time"] = error_text(lambda: grad(y, x))

    # A gradient penalty (WGAN-GP style): the gradient of the critic's output with respect to
    # its input, differentiated again with respect to the critic's weights.
    torch.manual_seed(1)
    inp = torch.randn(5, 3, requires_grad=True)
    critic = torch.randn(3, 1, requires_grad=True)
    out = (inp @ critic).tanh()
    (gi,) = grad(out.sum(), inp, create_graph=True)
    penalty = ((gi.norm(2, dim=1) - 1) ** 2).mean()
    (gc,) = grad(penalty, critic)
    v["penalty"] = [penalty.item(), gc.tolist()]

    v["not_scalar"] = error_text(lambda: grad(x * 2, x))
    v["unused"] = error_text(lambda: grad((x * 2).sum(), [x, u]))
    v["shape_scalar"] = error_text(lambda: grad((x * 2).sum(), x, grad_outputs=torch.ones(2)))
    v["shape_vector"] = error_text(lambda: grad(x * 2, x, grad_outputs=torch.ones(2)))
    v["input_no_grad"] = error_text(lambda: grad((x * 2).sum(), torch.ones(2)))
    v["output_no_grad"] = error_text(lambda: grad(torch.ones(3).sum(), x))
    v["count"] = error_text(lambda: grad([x.sum(), (x * 2).sum()], x, grad_outputs=[torch.tensor(1.0)]))
    v["empty_inputs"] = error_text(lambda: grad(x.sum(), []))
    v["materialize_not_unused"] = error_text(
        lambda: grad(x.sum(), x, materialize_grads=True, allow_unused=False))
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "autograd_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
