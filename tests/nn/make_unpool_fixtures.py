#!/usr/bin/env python3
"""Writes tests/nn/unpool_fixtures.spl: torch.nn's MaxUnpool1d/2d/3d, FractionalMaxPool2d/3d
and LPPool3d, the functional max_unpool*, fractional_max_pool* (and _with_indices), lp_pool3d
and the *_with_indices pooling functions — repr, output, indices and input gradient — and
their errors, run by Python PyTorch on the pinned wheel. unpool_spec.spl replays each case:
seed, construct, draw the input, forward (fractional pooling draws its torch.rand samples
there), backward with fixtures.py's upstream gradient.

    .venv/bin/python tests/nn/make_unpool_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def unpool2d(m, size=None):
    def run(x):
        o, i = F.max_pool2d(x, 2, return_indices=True)
        return m(o, i, output_size=size)
    return run


# name, module (or nil), function of the input, input shape: the spec builds the same list.
CASES = [
    ("unpool1d", lambda: nn.MaxUnpool1d(2), lambda m: (lambda x: m(*F.max_pool1d(x, 2, return_indices=True))), (1, 2, 6)),
    ("unpool1d_size", lambda: nn.MaxUnpool1d(2, stride=2), lambda m: (lambda x: m(*F.max_pool1d(x, 2, return_indices=True), output_size=[7])), (2, 7)),
    ("unpool2d", lambda: nn.MaxUnpool2d(2), lambda m: unpool2d(m), (1, 2, 4, 4)),
    ("unpool2d_size", lambda: nn.MaxUnpool2d(2, stride=2), lambda m: unpool2d(m, [1, 2, 5, 5]), (1, 2, 5, 5)),
    ("unpool3d", lambda: nn.MaxUnpool3d(2), lambda m: (lambda x: m(*F.max_pool3d(x, 2, return_indices=True))), (1, 1, 4, 4, 4)),
    ("f_unpool2d_pad", None, lambda m: (lambda x: F.max_unpool2d(*F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True), 3, stride=2, padding=1, output_size=[5, 5])), (1, 1, 5, 5)),
    ("f_unpool3d", None, lambda m: (lambda x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2)), (1, 2, 2, 4, 4)),
    ("frac2d_size", lambda: nn.FractionalMaxPool2d(2, output_size=3), lambda m: m, (2, 3, 7, 7)),
    ("frac2d_ratio_idx", lambda: nn.FractionalMaxPool2d((3, 2), output_ratio=(0.5, 0.7), return_indices=True), lambda m: m, (1, 2, 9, 8)),
    ("frac2d_unbatched", lambda: nn.FractionalMaxPool2d(2, output_size=(3, 4)), lambda m: m, (2, 6, 7)),
    ("frac3d_size", lambda: nn.FractionalMaxPool3d(2, output_size=3, return_indices=True), lambda m: m, (1, 2, 5, 6, 7)),
    ("frac3d_ratio", lambda: nn.FractionalMaxPool3d(2, output_ratio=0.5), lambda m: m, (2, 6, 6, 6)),
    ("f_frac2d", None, lambda m: (lambda x: F.fractional_max_pool2d(x, 2, output_ratio=[0.5, 0.5])), (1, 3, 8, 8)),
    ("f_frac2d_idx", None, lambda m: (lambda x: F.fractional_max_pool2d_with_indices(x, 3, output_size=[4, 4])), (2, 1, 9, 9)),
    ("f_frac3d", None, lambda m: (lambda x: F.fractional_max_pool3d(x, 2, output_size=2, return_indices=True)), (1, 1, 4, 5, 6)),
    ("f_frac3d_samples", None, lambda m: (lambda x: F.fractional_max_pool3d_with_indices(x, 2, output_size=[2, 2, 2], _random_samples=torch.full((1, 2, 3), 0.3))), (1, 2, 5, 5, 5)),
    ("lppool3d", lambda: nn.LPPool3d(2, 2), lambda m: m, (1, 2, 4, 4, 4)),
    ("lppool3d_options", lambda: nn.LPPool3d(1.5, (2, 1, 2), stride=(1, 1, 2), ceil_mode=True), lambda m: m, (2, 3, 4, 5)),
    ("f_lp_pool3d", None, lambda m: (lambda x: F.lp_pool3d(x, 3.0, 2, stride=1)), (1, 1, 3, 3, 3)),
    ("f_max_pool1d_wi", None, lambda m: (lambda x: F.max_pool1d_with_indices(x, 3, stride=2, padding=1)), (1, 2, 7)),
    ("f_max_pool2d_wi", None, lambda m: (lambda x: F.max_pool2d_with_indices(x, 2, dilation=2, ceil_mode=True)), (1, 2, 6, 6)),
    ("f_max_pool3d_wi", None, lambda m: (lambda x: F.max_pool3d_with_indices(x, 2)), (1, 1, 4, 4, 4)),
    ("f_adaptive_max_pool1d_wi", None, lambda m: (lambda x: F.adaptive_max_pool1d_with_indices(x, 3)), (1, 2, 7)),
    ("f_adaptive_max_pool2d_wi", None, lambda m: (lambda x: F.adaptive_max_pool2d_with_indices(x, (2, 3))), (1, 2, 5, 7)),
    ("f_adaptive_max_pool3d_wi", None, lambda m: (lambda x: F.adaptive_max_pool3d_with_indices(x, 2)), (1, 1, 4, 5, 3)),
]


def main():
    v = {}
    for i, (name, make, fn, shape) in enumerate(CASES):
        torch.manual_seed(300 + i)
        m = make() if make is not None else None
        x = torch.randn(*shape, requires_grad=True)
        res = fn(m)(x)
        out = res[0] if isinstance(res, tuple) else res
        (out * upstream(out)).sum().backward()
        if m is not None:
            v[name + "_repr"] = repr(m)
        v[name + "_out"] = flat(out)
        v[name + "_shape"] = list(out.shape)
        v[name + "_grad"] = flat(x.grad)
        v[name + "_idx"] = res[1].reshape(-1).tolist() if isinstance(res, tuple) else []
    x = torch.randn(1, 1, 4, 4)
    o, i = F.max_pool2d(x, 2, return_indices=True)
    v["err_unpool_size_range"] = error_text(lambda: F.max_unpool2d(o, i, 2, output_size=[6, 4]))
    v["err_unpool_size_len"] = error_text(lambda: F.max_unpool2d(o, i, 2, output_size=[4, 4, 4]))
    v["err_frac_none"] = error_text(lambda: nn.FractionalMaxPool2d(2))
    v["err_frac_both"] = error_text(lambda: nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5))
    v["err_frac_ratio"] = error_text(lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 1.5)))
    v["err_frac3d_ratio"] = error_text(lambda: nn.FractionalMaxPool3d(2, output_ratio=1.5))
    v["err_frac3d_kernel"] = error_text(lambda: nn.FractionalMaxPool3d(0, output_size=2))
    v["err_f_frac_none"] = error_text(lambda: F.fractional_max_pool2d(x, 2))
    v["err_f_frac3d_none"] = error_text(lambda: F.fractional_max_pool3d(x, 2))
    v["err_frac_too_big"] = error_text(lambda: F.fractional_max_pool2d(x, 2, output_size=[4, 4]))
    v["err_lppool3d_zero"] = error_text(lambda: nn.LPPool3d(0, 2))
    path = os.path.join(HERE, "unpool_fixtures.spl")
    write(path, __file__, v, index=True)


if __name__ == "__main__":
    main()
