#!/usr/bin/env python3
"""Writes tests/nn/pyrepr_fixtures.spl: Python's repr of the values lib.torch's reprs print
(numbers, None, booleans, text, lists and tuples, mixed ones with None inside), for
lib.torch.nn.pyrepr, which module and optimizer reprs use.
Run: .venv/bin/python tests/nn/make_pyrepr_fixtures.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VALUES = [0.0001, 1e-08, 1000000.0, 0.1, 3.0, -0.8, 2, True, None, "it's", 'say "hi"', [1, 2.5, None],
          (4,), (None, -0.8), (0.9, 0.999), ()]


def main():
    write(os.path.join(HERE, "pyrepr_fixtures.spl"), __file__, {"reprs": [repr(v) for v in VALUES]})


if __name__ == "__main__":
    main()
