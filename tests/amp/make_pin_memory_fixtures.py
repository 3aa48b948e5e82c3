#!/usr/bin/env python3
"""Writes tests/amp/pin_memory_fixtures.spl: DataLoader(pin_memory=True) in the pinned PyTorch
on a machine without an accelerator: the warnings of two epochs (each iterator warns) and the
batches, unchanged (not pinned), for a TensorDataset and a collate_fn giving a dict of a tuple.

    .venv/bin/python tests/amp/make_pin_memory_fixtures.py
"""
import os
import sys
import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402


def nested(batch):
    return {"pair": (torch.stack([x for x, _ in batch]), torch.stack([y for _, y in batch])), "n": len(batch)}


v = {"accelerator": torch.accelerator.is_available()}
torch.manual_seed(0)
ds = TensorDataset(torch.randn(6, 3), torch.arange(6))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    plain = DataLoader(ds, batch_size=4, shuffle=True, pin_memory=True)
    v["batches"] = [[flat(x), y.tolist(), x.is_pinned()] for _ in range(2) for x, y in plain]
    dicts = DataLoader(ds, batch_size=4, collate_fn=nested, pin_memory=True, pin_memory_device="cuda")
    v["dict_batches"] = [[flat(b["pair"][0]), b["pair"][1].tolist(), b["n"], type(b["pair"]).__name__] for b in dicts]
v["warnings"] = [str(w.message) for w in caught]
write(os.path.join(HERE, "pin_memory_fixtures.spl"), __file__, v)
