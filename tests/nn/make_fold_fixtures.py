#!/usr/bin/env python3
"""Writes tests/nn/fold_fixtures.spl: torch.nn's Fold, Unfold and ChannelShuffle and the
functional fold, unfold, channel_shuffle and native_channel_shuffle — repr, output and input
gradient — and their errors, run by Python PyTorch on the pinned wheel. fold_spec.spl replays
each case: seed, draw, forward, backward with fixtures.py's upstream gradient.

    .venv/bin/python tests/nn/make_fold_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# name, module or function of one input, input shape: the spec builds the same list.
CASES = [
    ("unfold", lambda: nn.Unfold(2), (2, 3, 4, 4)),
    ("unfold_options", lambda: nn.Unfold((2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (1, 2, 5, 6)),
    ("unfold_unbatched", lambda: nn.Unfold(3, padding=1), (2, 3, 3)),
    ("fold", lambda: nn.Fold((4, 5), 2), (2, 12, 12)),
    ("fold_options", lambda: nn.Fold(output_size=(5, 6), kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (1, 12, 12)),
    ("fold_unbatched", lambda: nn.Fold(3, 2, stride=1), (8, 4)),
    ("channel_shuffle", lambda: nn.ChannelShuffle(2), (2, 4, 3)),
    ("channel_shuffle3", lambda: nn.ChannelShuffle(3), (1, 6, 2, 2)),
    ("f_unfold", lambda: (lambda x: F.unfold(x, [2, 2], stride=2)), (1, 2, 4, 4)),
    ("f_fold", lambda: (lambda x: F.fold(x, [4, 4], 2, stride=2)), (1, 8, 4)),
    ("f_channel_shuffle", lambda: (lambda x: F.channel_shuffle(x, 2)), (1, 4, 2, 2)),
    ("f_native_channel_shuffle", lambda: (lambda x: F.native_channel_shuffle(x, 2)), (1, 4, 2, 2)),
]


def main():
    v = {}
    for i, (name, make, shape) in enumerate(CASES):
        torch.manual_seed(200 + i)
        m = make()
        grad = name != "f_native_channel_shuffle"   # ATen has no derivative for it
        x = torch.randn(*shape, requires_grad=grad)
        out = m(x)
        if grad:
            (out * upstream(out)).sum().backward()
        if isinstance(m, nn.Module):
            v[name + "_repr"] = repr(m)
        v[name + "_out"] = flat(out)
        v[name + "_shape"] = list(out.shape)
        v[name + "_grad"] = flat(x.grad) if grad else []
    v["err_fold_divisible"] = error_text(lambda: nn.Fold((4, 4), 2)(torch.zeros(1, 5, 9)))
    v["err_fold_blocks"] = error_text(lambda: nn.Fold((4, 4), 2)(torch.zeros(1, 4, 8)))
    v["err_unfold_rank"] = error_text(lambda: nn.Unfold(2)(torch.zeros(1, 1, 1, 4, 4)))
    v["err_unfold_too_small"] = error_text(lambda: F.unfold(torch.zeros(1, 1, 2, 2), 3))
    v["err_shuffle_groups"] = error_text(lambda: nn.ChannelShuffle(3)(torch.zeros(1, 4, 2, 2)))
    path = os.path.join(HERE, "fold_fixtures.spl")
    write(path, __file__, v, index=True)


if __name__ == "__main__":
    main()
