#!/usr/bin/env python3
"""Writes tests/spl/language_fixtures.spl: reference values for the specs of
language features meeting lib.torch — builtins after `use lib.torch.*`
(builtins_with_torch_spec.spl) and format specs on tensors
(tensor_format_spec.spl) — computed by Python and PyTorch on the same
LibTorch the plugin uses. Run with the venv's python:

    .venv/bin/python tests/spl/make_language_fixtures.py
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "language_fixtures.spl")


def error_text(f):
    try:
        f()
    except Exception as e:  # the message PyTorch gives
        return str(e)
    raise AssertionError("expected an error")


def main():
    values = {}
    # Python's own builtins on plain numbers (what `sqrt(2.0)` must still give).
    values["sqrt_2"] = math.sqrt(2.0)
    values["sqrt_16"] = math.sqrt(16)
    values["exp_1"] = math.exp(1.0)
    values["log_10"] = math.log(10.0)
    values["floor_2_5"] = float(math.floor(2.5))
    values["ceil_2_5"] = float(math.ceil(2.5))
    # The same names on tensors are still lib.torch's.
    t = torch.tensor([1.0, 4.0, 9.0])
    values["sqrt_tensor"] = torch.sqrt(t).tolist()
    values["max_tensor"] = torch.max(t).item()
    values["abs_tensor"] = torch.abs(torch.tensor([-1.5, 2.0])).tolist()
    values["sum_tensor"] = torch.sum(t).item()
    values["max_pair"] = torch.max(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0])).tolist()
    # format(tensor, spec): Tensor.__format__ formats a 0-d tensor's item().
    values["format_f32_4f"] = format(torch.tensor(0.123456), ".4f")
    values["format_i64_right5"] = format(torch.tensor(3), ">5")
    values["format_f64_zero_pad"] = format(torch.tensor(2.5, dtype=torch.float64), "08.3f")
    values["format_sum_2f"] = format(t.sum(), ".2f")
    values["format_grouping"] = format(torch.tensor(1234567.0), ",.1f")
    values["format_exp"] = format(torch.tensor(0.000123), ".2e")
    values["format_1d_error"] = error_text(lambda: format(t, ".2f"))
    write(OUT, __file__, values, header=f'Reference values from Python {".".join(map(str, sys.version_info[:3]))} and '
                                        f'PyTorch {torch.__version__} (same LibTorch as the plugin).\n')


if __name__ == "__main__":
    main()
