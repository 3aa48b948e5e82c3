#!/usr/bin/env python3
"""Writes tests/spl/scalar_bool_fixtures.spl: a bool given where ATen takes a Scalar, and a bool
Scalar coming back, as PyTorch on the pin gives them (the mutation check,
scripts/mutation_check.sh, found these untested: a bool reaching ATen as the integer 1
changes the dtype that full() infers and the promotion of bool tensors).
Run: .venv/bin/python tests/spl/make_scalar_bool_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


def described(t):
    return [str(t.dtype).replace("torch.", ""), t.tolist()]


def main():
    mask = torch.tensor([True, False, True])
    v = {
        "full_true": described(torch.full([2, 2], True)),
        "full_false_int_dtype": described(torch.full([2], False, dtype=torch.int64)),
        "xor_true": described(mask.bitwise_xor(True)),
        "and_false": described(mask.bitwise_and(False)),
        "int_add_true": described(torch.tensor([1, 2]).add(True)),
        "item_true": torch.tensor([True]).item(),
        "item_false": torch.tensor(False).item(),
    }
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scalar_bool_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
