#!/usr/bin/env python3
"""Writes tests/nn/module_call_fixtures.spl: a Module called with six positional and two named
arguments, with and without forward hooks (nn.Module.__call__ passes them all to forward;
the hooks see the positional ones), on the pinned torch.
Run: .venv/bin/python tests/nn/make_module_call_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


class Six(torch.nn.Module):
    def forward(self, a, b, c, d, e, f, scale=1.0, shift=0.0):
        return (a * 1 + b * 2 + c * 3 + d * 4 + e * 5 + f * 6) * scale + shift


def inputs():
    return [torch.arange(3, dtype=torch.float32) + k for k in range(6)]


def main():
    v = {}
    m = Six()
    v["plain"] = m(*inputs(), scale=2.0, shift=0.5).tolist()
    v["positional_only"] = m(*inputs()).tolist()
    seen = []

    def pre(module, args):
        seen.append(len(args))
        return (args[0] * 10,) + tuple(args[1:])

    def post(module, args, out):
        seen.append(len(args))
        return out + 1

    h1 = m.register_forward_pre_hook(pre)
    h2 = m.register_forward_hook(post)
    v["hooked"] = m(*inputs(), scale=2.0, shift=0.5).tolist()
    v["hook_arg_counts"] = seen
    h1.remove()
    h2.remove()
    v["unhooked"] = m(*inputs(), shift=-1.0).tolist()
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "module_call_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
