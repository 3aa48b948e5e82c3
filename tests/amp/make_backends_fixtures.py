#!/usr/bin/env python3
"""Writes tests/amp/backends_fixtures.spl: torch.backends' switches as the pinned PyTorch
has them (defaults, what flags() sets, how cuda.matmul.allow_tf32 moves the float32 matmul
precision) and torch.utils.deterministic's default.

    .venv/bin/python tests/amp/make_backends_fixtures.py
"""
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

b = torch.backends


def switches():
    return [b.cudnn.enabled, b.cudnn.benchmark, b.cudnn.deterministic, b.cudnn.allow_tf32,
            b.cuda.matmul.allow_tf32, b.mkldnn.enabled, torch.utils.deterministic.fill_uninitialized_memory]


v = {}
v["defaults"] = switches()
v["cudnn_version"] = b.cudnn.version()
with b.cudnn.flags():
    v["cudnn_flags_defaults"] = [b.cudnn.enabled, b.cudnn.benchmark, b.cudnn.deterministic, b.cudnn.allow_tf32]
with b.cudnn.flags(enabled=True, benchmark=True, deterministic=True, allow_tf32=False):
    v["cudnn_flags_given"] = [b.cudnn.enabled, b.cudnn.benchmark, b.cudnn.deterministic, b.cudnn.allow_tf32]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # oneDNN's TF32 switch is for Intel GPUs: flags() sets it too
    with b.mkldnn.flags():
        v["mkldnn_flags_default"] = b.mkldnn.enabled
v["after_flags"] = switches()
precisions = []
for on in [True, False]:
    b.cuda.matmul.allow_tf32 = on
    precisions.append(torch.get_float32_matmul_precision())
for p in ["high", "medium", "highest"]:
    torch.set_float32_matmul_precision(p)
    precisions.append(b.cuda.matmul.allow_tf32)
v["tf32_precision"] = precisions
v["final"] = switches()
write(os.path.join(HERE, "backends_fixtures.spl"), __file__, v)
