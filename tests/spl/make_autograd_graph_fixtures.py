#!/usr/bin/env python3
"""Writes tests/spl/autograd_graph_fixtures.spl: tensors' grad_fn on the pin: node names and
next_functions (the node each input's gradient flows to, and its input number) walked through
whole graphs, and leaves without a grad_fn.
Run: .venv/bin/python tests/spl/make_autograd_graph_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


def describe(node):
    """[name, [[next node described, or nil], input number] per edge]."""
    if node is None:
        return None
    return [node.name(), [[describe(n), nr] for n, nr in node.next_functions]]


def main():
    x = torch.ones(2, requires_grad=True)
    w = torch.tensor([1.0, 2.0])
    v = {
        "chain": describe((x * w).sin().sum().grad_fn),
        "shared": describe((x + x).grad_fn),
        "split": describe((x.split(1)[1] * w[0:1]).grad_fn),
        "leaf": [x.grad_fn is None, w.grad_fn is None, (w * 2).grad_fn is None],
    }
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "autograd_graph_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
