#!/usr/bin/env python3
"""Writes tests/nn/backward_hooks_fixtures.spl: nn.Module's full backward hooks on the pin, for
backward_hooks_spec.spl: a Linear-Tanh-Linear network from fixed weights, with a
register_full_backward_pre_hook and a register_full_backward_hook on the second Linear (the
first one's input does not require grad: its full hook runs from grad_output with grad_input
None), every hook's view of the gradients in the order they ran, a hook that doubles
grad_input and one that replaces grad_output, the parameters' gradients after each, and the
hooks removed.
Run: .venv/bin/python tests/nn/make_backward_hooks_fixtures.py"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


def network():
    l1 = torch.nn.Linear(3, 4).double()
    l2 = torch.nn.Linear(4, 2).double()
    with torch.no_grad():
        l1.weight.copy_((torch.arange(12, dtype=torch.float64).reshape(4, 3) * 0.3).sin())
        l1.bias.copy_(torch.arange(4, dtype=torch.float64) * 0.1)
        l2.weight.copy_((torch.arange(8, dtype=torch.float64).reshape(2, 4) * 0.7).cos())
        l2.bias.copy_(torch.tensor([0.5, -0.5], dtype=torch.float64))
    return l1, l2


def described(values):
    return [None if v is None else v.tolist() for v in values]


def run(double_input=False, replace_output=False, remove=False):
    l1, l2 = network()
    log = []

    def pre(module, grad_output):
        log.append(["pre", described(grad_output)])
        if replace_output:
            return tuple(g * 3.0 for g in grad_output)

    def full(module, grad_input, grad_output):
        log.append(["full", described(grad_input), described(grad_output)])
        if double_input:
            return tuple(None if g is None else g * 2.0 for g in grad_input)

    def first(module, grad_input, grad_output):
        log.append(["first", described(grad_input), described(grad_output)])

    handles = [l2.register_full_backward_pre_hook(pre), l2.register_full_backward_hook(full),
               l1.register_full_backward_hook(first)]
    if remove:
        for h in handles:
            h.remove()
    x = (torch.arange(6, dtype=torch.float64).reshape(2, 3) * 0.25).cos()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        l2(torch.tanh(l1(x))).sum().backward()
    return [log, [p.grad.tolist() for p in (l1.weight, l1.bias, l2.weight, l2.bias)]]


def main():
    v = {"plain": run(), "doubled_input": run(double_input=True), "replaced_output": run(replace_output=True),
         "removed": run(remove=True)}
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "backward_hooks_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
