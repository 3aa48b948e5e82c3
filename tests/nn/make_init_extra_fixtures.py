#!/usr/bin/env python3
"""Writes tests/nn/init_extra_fixtures.spl: torch.nn.init.dirac_ and sparse_ (values after the
seed, errors), by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_init_extra_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    v = {}
    for name, shape, groups in [("d3", [4, 3, 5], 1), ("d4", [6, 4, 3, 2], 2), ("d5", [3, 2, 3, 3, 3], 1), ("d4_wide", [2, 5, 3, 3], 1)]:
        w = torch.full(shape, 7.0)
        nn.init.dirac_(w, groups)
        v[name] = flat(w)
    for name, shape, sparsity, std in [("s1", [5, 3], 0.3, 0.01), ("s2", [8, 6], 0.5, 1.0), ("s3", [4, 4], 0.0, 0.1), ("s4", [3, 7], 1.0, 0.5)]:
        torch.manual_seed(11)
        w = torch.empty(shape)
        nn.init.sparse_(w, sparsity, std=std)
        v[name] = flat(w)
        v[name + "_next"] = torch.rand(1).item()  # the generator's state after sparse_
    v["dirac_dims_error"] = error_text(lambda: nn.init.dirac_(torch.empty(3, 3)))
    v["dirac_groups_error"] = error_text(lambda: nn.init.dirac_(torch.empty(5, 3, 3), 2))
    v["sparse_dims_error"] = error_text(lambda: nn.init.sparse_(torch.empty(3, 3, 3), 0.1))
    write(os.path.join(HERE, "init_extra_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
