#!/usr/bin/env python3
"""Writes tests/nn/clip_grad_fixtures.spl: torch.nn.utils.clip_grad_norm_ / clip_grad_value_
on a Linear's gradients, by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_clip_grad_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def grads_after(seed):
    torch.manual_seed(seed)
    m = nn.Linear(4, 3)
    m(torch.randn(5, 4)).pow(2).sum().backward()
    return m


def main():
    v = {}
    for name, norm_type in [("l2", 2.0), ("l1", 1.0), ("inf", float("inf"))]:
        m = grads_after(0)
        total = nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=norm_type)
        v["norm_" + name + "_total"] = total.item()
        v["norm_" + name + "_grads"] = [flat(p.grad) for p in m.parameters()]
    m = grads_after(0)
    v["norm_large_total"] = nn.utils.clip_grad_norm_(m.parameters(), 100.0).item()
    v["norm_large_grads"] = [flat(p.grad) for p in m.parameters()]
    m = grads_after(1)
    nn.utils.clip_grad_value_(m.parameters(), 0.3)
    v["value_grads"] = [flat(p.grad) for p in m.parameters()]
    m = grads_after(2)
    m.weight.grad[0, 0] = float("inf")
    v["nonfinite_error"] = error_text(lambda: nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
    write(os.path.join(HERE, "clip_grad_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
