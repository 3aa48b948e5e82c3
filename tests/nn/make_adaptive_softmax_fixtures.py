#!/usr/bin/env python3
"""Writes tests/nn/adaptive_softmax_fixtures.spl: torch.nn.AdaptiveLogSoftmaxWithLoss —
parameters after manual_seed (bit-identical), names, state_dict keys, repr, forward's
(output, loss), every gradient after loss.backward(), log_prob and predict — and its errors,
run by Python PyTorch on the pinned wheel. adaptive_softmax_spec.spl replays each case.

    .venv/bin/python tests/nn/make_adaptive_softmax_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def case(v, name, seed, make, x_shape, target):
    """Seed, build, draw x, forward with `target`, loss.backward(); then log_prob and predict
    of a second, larger draw (so predict meets rows in and out of the shortlist)."""
    torch.manual_seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a zero-width tail Linear warns at init
        m = make()
    v[name + "_param_names"] = [n for n, _ in m.named_parameters()]
    v[name + "_params"] = [flat(p) for _, p in m.named_parameters()]
    v[name + "_state_keys"] = list(m.state_dict().keys())
    v[name + "_repr"] = repr(m)
    x = torch.randn(*x_shape, requires_grad=True)
    r = m(x, torch.tensor(target))
    v[name + "_output"] = flat(r.output)
    v[name + "_output_shape"] = list(r.output.shape)
    v[name + "_loss"] = r.loss.item()
    r.loss.backward()
    v[name + "_grads"] = [flat(p.grad) for _, p in m.named_parameters()]
    v[name + "_input_grad"] = flat(x.grad)
    y = torch.randn(20, x_shape[-1]) * 3
    v[name + "_log_prob"] = flat(m.log_prob(y))
    v[name + "_predict"] = m.predict(y).tolist()
    v[name + "_argmax"] = m.log_prob(y).argmax(1).tolist()


def main():
    v = {}
    case(v, "asm", 400, lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7]), (6, 8), [0, 5, 9, 3, 7, 1])
    case(v, "asm_bias", 401, lambda: nn.AdaptiveLogSoftmaxWithLoss(16, 12, [3, 6, 9], div_value=2.0, head_bias=True), (5, 16), [11, 2, 6, 4, 8])
    case(v, "asm_unbatched", 402, lambda: nn.AdaptiveLogSoftmaxWithLoss(6, 8, [2], div_value=1.5), (6,), 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2, 4])
    v["err_empty"] = error_text(lambda: nn.AdaptiveLogSoftmaxWithLoss(4, 6, []))
    v["err_unsorted"] = error_text(lambda: nn.AdaptiveLogSoftmaxWithLoss(4, 6, [4, 2]))
    v["err_too_big"] = error_text(lambda: nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2, 6]))
    v["err_range"] = error_text(lambda: m(torch.zeros(2, 4), torch.tensor([1, 7])))
    v["err_multi"] = error_text(lambda: m(torch.zeros(2, 4), torch.zeros(2, 1, dtype=torch.long)))
    v["err_batch"] = error_text(lambda: m(torch.zeros(3, 4), torch.tensor([1, 2])))
    v["err_1d_target"] = error_text(lambda: m(torch.zeros(2, 2, 4), torch.tensor([1, 2])))
    v["err_0d_target"] = error_text(lambda: m(torch.zeros(2, 4), torch.tensor(1)))
    write(os.path.join(HERE, "adaptive_softmax_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
