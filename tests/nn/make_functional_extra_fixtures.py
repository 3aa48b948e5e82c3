#!/usr/bin/env python3
"""Writes tests/nn/functional_extra_fixtures.spl: torch.nn.functional's gumbel_softmax (its
exponential_ samples after manual_seed), in-place activations, the upsample family,
conv_tbc, grouped_mm and linear_cross_entropy — output and input gradients — and their
errors, run by Python PyTorch on the pinned wheel. functional_extra_spec.spl replays each case:
seed, draw the inputs, call, backward with fixtures.py's upstream gradient.

    .venv/bin/python tests/nn/make_functional_extra_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def inplace(f):
    """An in-place function applied to a copy of the input (a leaf cannot be changed in place)."""
    return lambda x: f(x * 1.0)


# name, function of the inputs, input shapes (drawn with randn, requiring grad, in order).
CASES = [
    ("gumbel", lambda l: F.gumbel_softmax(l), [(3, 5)]),
    ("gumbel_tau_dim0", lambda l: F.gumbel_softmax(l, tau=0.3, dim=0), [(4, 3)]),
    ("gumbel_hard", lambda l: F.gumbel_softmax(l, tau=0.5, hard=True), [(4, 6)]),
    ("gumbel_transposed", lambda l: F.gumbel_softmax(l.t(), hard=True, dim=0), [(3, 4)]),
    ("threshold_", inplace(lambda x: F.threshold_(x, 0.1, -2.0)), [(2, 5)]),
    ("relu_", inplace(F.relu_), [(2, 5)]),
    ("hardtanh_", inplace(lambda x: F.hardtanh_(x, -0.5, 0.5)), [(2, 5)]),
    ("elu_", inplace(lambda x: F.elu_(x, 0.7)), [(2, 5)]),
    ("selu_", inplace(F.selu_), [(2, 5)]),
    ("celu_", inplace(lambda x: F.celu_(x, 1.3)), [(2, 5)]),
    ("leaky_relu_", inplace(lambda x: F.leaky_relu_(x, 0.2)), [(2, 5)]),
    ("rrelu_eval", inplace(F.rrelu_), [(2, 5)]),
    ("rrelu_train", inplace(lambda x: F.rrelu_(x, 0.1, 0.3, training=True)), [(2, 5)]),
    ("upsample", lambda x: F.upsample(x, scale_factor=2, mode="bilinear", align_corners=False), [(1, 1, 2, 3)]),
    ("upsample_nearest", lambda x: F.upsample_nearest(x, size=[3, 5]), [(1, 2, 2, 2)]),
    ("upsample_bilinear", lambda x: F.upsample_bilinear(x, scale_factor=2), [(1, 1, 3, 3)]),
    ("conv_tbc", lambda x, w, b: F.conv_tbc(x, w, b, 1), [(5, 2, 3), (3, 3, 4), (4,)]),
    ("grouped_mm", lambda a, b: F.grouped_mm(a, b, offs=torch.tensor([4, 8], dtype=torch.int32)), [(8, 16), (2, 16, 8)]),
    ("lce", lambda h, w: F.linear_cross_entropy(h, w, torch.tensor([0, 3, 1, 4])), [(4, 3), (5, 3)]),
    ("lce_bias_sum", lambda h, w, b: F.linear_cross_entropy(h, w, torch.tensor([2, 0, 1]), linear_bias=b, reduction="sum", label_smoothing=0.1), [(3, 4), (3, 4), (3,)]),
    ("lce_unbatched_ignore", lambda h, w: F.linear_cross_entropy(h, w, torch.tensor(2), ignore_index=1, reduction="none"), [(4,), (3, 4)]),
    ("lce_kdim", lambda h, w: F.linear_cross_entropy(h, w, torch.tensor([[0, 1], [2, 2]])), [(2, 3), (3, 2, 3)]),
    ("lce_probs", lambda h, w, t: F.linear_cross_entropy(h, w, t.softmax(1), weight=torch.tensor([1.0, 2.0, 0.5])), [(2, 4), (3, 4), (2, 3)]),
]


def main():
    v = {}
    for i, (name, fn, shapes) in enumerate(CASES):
        torch.manual_seed(500 + i)
        xs = [torch.randn(*s, requires_grad=True) for s in shapes]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # upsample's deprecation warnings
            out = fn(*xs)
        (out * upstream(out)).sum().backward()
        v[name + "_out"] = flat(out)
        v[name + "_shape"] = list(out.shape)
        v[name + "_grads"] = [flat(x.grad) for x in xs]
    x = torch.randn(2, 3)
    v["err_lce_rank"] = error_text(lambda: F.linear_cross_entropy(torch.zeros(2, 2, 3), torch.zeros(4, 3), torch.tensor([0, 1])))
    v["err_lce_weight_rank"] = error_text(lambda: F.linear_cross_entropy(x, torch.zeros(3), torch.tensor([0, 1])))
    v["err_lce_features"] = error_text(lambda: F.linear_cross_entropy(x, torch.zeros(4, 2), torch.tensor([0, 1])))
    v["err_lce_bias"] = error_text(lambda: F.linear_cross_entropy(x, torch.zeros(4, 3), torch.tensor([0, 1]), linear_bias=torch.zeros(3)))
    v["err_lce_kdim_unbatched"] = error_text(lambda: F.linear_cross_entropy(torch.zeros(3), torch.zeros(4, 2, 3), torch.tensor([0, 1])))
    v["err_lce_probs_ignore"] = error_text(lambda: F.linear_cross_entropy(x, torch.zeros(4, 3), torch.zeros(2, 4), ignore_index=0))
    v["grid_sample_modes"] = [F.GRID_SAMPLE_INTERPOLATION_MODES, F.GRID_SAMPLE_PADDING_MODES]
    path = os.path.join(HERE, "functional_extra_fixtures.spl")
    write(path, __file__, v, index=True)


if __name__ == "__main__":
    main()
