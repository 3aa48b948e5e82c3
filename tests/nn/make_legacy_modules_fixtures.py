#!/usr/bin/env python3
"""Writes tests/nn/legacy_modules_fixtures.spl: torch.nn.CrossMapLRN2d (forward and its
hand-written backward), LinearCrossEntropyLoss and LinearCrossEntropyOptions (values, names,
state_dict keys, reprs, errors), by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_legacy_modules_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, module_case, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    v = {}
    # CrossMapLRN2d: odd and even sizes, a window wider than the channels, float64
    for name, make, shape, dtype in [("lrn3", lambda: nn.CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=1), [2, 5, 2, 3], torch.float32),
                                     ("lrn4", lambda: nn.CrossMapLRN2d(4, alpha=0.5, beta=0.6, k=2.0), [1, 6, 3, 2], torch.float32),
                                     ("lrn7", lambda: nn.CrossMapLRN2d(7), [2, 3, 2, 2], torch.float64)]:
        module_case(v, name, make, lambda: [torch.randn(shape, dtype=dtype, requires_grad=True)])
    v["lrn_dim_error"] = error_text(lambda: nn.CrossMapLRN2d(3)(torch.randn(2, 3, 4)))
    # LinearCrossEntropyLoss
    torch.manual_seed(0)
    loss = nn.LinearCrossEntropyLoss(5, 10, out_features=(4, 3), label_smoothing=0.1)
    x = torch.randn(2, 5, requires_grad=True)
    t = torch.randint(0, 10, (2, 4, 3))
    out = loss(x, t)
    out.backward()
    v["lce_k_repr"] = repr(loss)
    v["lce_k_names"] = [n for n, _ in loss.named_parameters()]
    v["lce_k_params"] = [flat(p) for p in loss.parameters()]
    v["lce_k_out"] = out.item()
    v["lce_k_input_grad"] = flat(x.grad)
    v["lce_k_grads"] = [flat(p.grad) for p in loss.parameters()]
    torch.manual_seed(1)
    w = torch.rand(6) + 0.5
    loss = nn.LinearCrossEntropyLoss(4, 6, bias=True, weight=w, reduction="sum", ignore_index=2,
                                     options=nn.LinearCrossEntropyOptions(batch_chunk_size=2, chunking_method=None))
    x = torch.randn(5, 4, requires_grad=True)
    t = torch.tensor([0, 2, 5, 1, 3])
    out = loss(x, t)
    out.backward()
    v["lce_w_repr"] = repr(loss)
    v["lce_w_keys"] = list(loss.state_dict().keys())
    v["lce_w_params"] = [flat(p) for p in loss.parameters()]
    v["lce_w_out"] = out.item()
    v["lce_w_input_grad"] = flat(x.grad)
    v["lce_w_grads"] = [flat(p.grad) for p in loss.parameters()]
    v["lce_weight_error"] = error_text(lambda: nn.LinearCrossEntropyLoss(5, 10, weight=torch.ones(3)))
    v["lce_smoothing_error"] = error_text(lambda: nn.LinearCrossEntropyLoss(5, 10, label_smoothing=2.0))
    v["opt_repr"] = repr(nn.LinearCrossEntropyOptions(acc_dtype=torch.float32, batch_chunk_size=4, chunking_method=None))
    v["opt_policy_error"] = error_text(lambda: nn.LinearCrossEntropyOptions(acc_policy="x"))
    v["opt_chunking_error"] = error_text(lambda: nn.LinearCrossEntropyOptions(chunking_method="aspect_ratio:0"))
    v["opt_chunk_size_error"] = error_text(lambda: nn.LinearCrossEntropyOptions(batch_chunk_size=0))
    v["opt_dtype_error"] = error_text(lambda: nn.LinearCrossEntropyOptions(acc_dtype=torch.int32))
    write(os.path.join(HERE, "legacy_modules_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
