#!/usr/bin/env python3
"""Writes tests/nn/padding_fixtures.spl: torch.nn's padding layers (Zero/Constant/Reflection/
Replication/CircularPad1d/2d/3d) — repr, output and input gradient — and their errors, run by
Python PyTorch on the pinned wheel. padding_spec.spl replays each case: seed, draw, forward,
backward with fixtures.py's upstream gradient.

    .venv/bin/python tests/nn/make_padding_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# name, module, input shape: the spec builds the same list in the same order.
CASES = [
    ("zero1d", lambda: nn.ZeroPad1d(2), (2, 3, 4)),
    ("zero1d_tuple", lambda: nn.ZeroPad1d((1, 3)), (3, 4)),
    ("zero2d", lambda: nn.ZeroPad2d((1, 1, 2, 0)), (1, 2, 3, 3)),
    ("zero3d", lambda: nn.ZeroPad3d(1), (1, 1, 2, 2, 2)),
    ("const1d", lambda: nn.ConstantPad1d(2, 3.5), (2, 4)),
    ("const2d", lambda: nn.ConstantPad2d((3, 0, 2, 1), -1), (1, 2, 2, 3)),
    ("const3d", lambda: nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 0.25), (1, 2, 2, 2)),
    ("reflect1d", lambda: nn.ReflectionPad1d(2), (1, 2, 4)),
    ("reflect2d", lambda: nn.ReflectionPad2d((1, 2, 0, 2)), (1, 1, 3, 4)),
    ("reflect3d", lambda: nn.ReflectionPad3d(1), (1, 1, 2, 3, 3)),
    ("replicate1d", lambda: nn.ReplicationPad1d((3, 1)), (2, 3)),
    ("replicate2d", lambda: nn.ReplicationPad2d(2), (1, 2, 2, 2)),
    ("replicate3d", lambda: nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)), (1, 1, 2, 2, 3)),
    ("circular1d", lambda: nn.CircularPad1d(1), (2, 2, 3)),
    ("circular2d", lambda: nn.CircularPad2d((1, 0, 2, 1)), (2, 3, 3)),
    ("circular3d", lambda: nn.CircularPad3d(1), (1, 1, 2, 2, 2)),
]


def main():
    v = {}
    for i, (name, make, shape) in enumerate(CASES):
        torch.manual_seed(100 + i)
        m = make()
        x = torch.randn(*shape, requires_grad=True)
        out = m(x)
        (out * upstream(out)).sum().backward()
        v[name + "_repr"] = repr(m)
        v[name + "_out"] = flat(out)
        v[name + "_shape"] = list(out.shape)
        v[name + "_grad"] = flat(x.grad)
    v["err_circular1d"] = error_text(lambda: nn.CircularPad1d(1)(torch.zeros(3)))
    v["err_circular2d"] = error_text(lambda: nn.CircularPad2d(1)(torch.zeros(1, 1, 1, 3, 3)))
    v["err_circular3d"] = error_text(lambda: nn.CircularPad3d(1)(torch.zeros(3, 3, 3)))
    v["err_reflect_too_big"] = error_text(lambda: nn.ReflectionPad1d(3)(torch.zeros(1, 2, 3)))
    v["err_reflect2d_dims"] = error_text(lambda: nn.ReflectionPad2d(1)(torch.zeros(3, 3)))
    v["err_replicate3d_dims"] = error_text(lambda: nn.ReplicationPad3d(1)(torch.zeros(2, 2, 2)))
    path = os.path.join(HERE, "padding_fixtures.spl")
    write(path, __file__, v, index=True)


if __name__ == "__main__":
    main()
