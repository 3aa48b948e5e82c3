#!/usr/bin/env python3
"""Writes tests/spl/forward_ad_fixtures.spl: torch.autograd.forward_ad on the pin: primals and
tangents of dual tensors through elementwise, matrix and reducing functions, the level numbers,
a tensor without a tangent, and the refusals (no level, integer primal, a tangent of another
size, nested levels).
Run: .venv/bin/python tests/spl/make_forward_ad_fixtures.py"""
import os
import sys

import torch
import torch.autograd.forward_ad as fwAD

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)


def nested():
    with fwAD.dual_level():
        with fwAD.dual_level():
            pass


def main():
    v = {}
    p = torch.tensor([0.5, -1.0, 2.0])
    t = torch.tensor([1.0, 10.0, 100.0])
    torch.manual_seed(3)
    m = torch.randn(2, 3)
    with fwAD.dual_level() as level:
        v["level"] = level
        x = fwAD.make_dual(p, t)
        results = []
        for y in [x.sin() * x, x.exp(), (m @ x).tanh(), (x * x).sum(), x.softmax(0)]:
            primal, tangent = fwAD.unpack_dual(y)
            results.append([primal.tolist(), tangent.tolist()])
        v["results"] = results
        v["no_tangent"] = fwAD.unpack_dual(torch.ones(2)).tangent is None
        v["integer"] = error_text(lambda: fwAD.make_dual(torch.ones(2, dtype=torch.long), torch.ones(2)))
        v["size"] = error_text(lambda: fwAD.make_dual(torch.ones(2), torch.ones(3)))
    with fwAD.dual_level() as again:
        v["level_again"] = again
    v["no_level"] = error_text(lambda: fwAD.make_dual(p, t))
    v["nested"] = error_text(nested)
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "forward_ad_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
