"""Writes the seed corpus of the `object` fuzz target (tests/fuzz/corpus/object/): pickles as
torch.distributed's object collectives send them (pickle.dumps on the pinned torch), with
and without tensors, and two damaged ones. Run with .venv's Python from the repository root."""
import pickle
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent / "corpus" / "object"
OUT.mkdir(parents=True, exist_ok=True)
base = torch.arange(6, dtype=torch.float32).view(2, 3)
seeds = {
    "plain": {"lr": 0.5, "name": "run-7", "steps": [1, 2, 3], "none": None, "on": True},
    "tensor_view": {"w": base[1], "t": base.t(), "step": 3},
    "dtypes": [torch.tensor([True, False]), torch.arange(3, dtype=torch.bfloat16), torch.arange(2, dtype=torch.int64)],
    "requires_grad": torch.ones(2, requires_grad=True),
}
for name, value in seeds.items():
    (OUT / f"{name}.pkl").write_bytes(pickle.dumps(value))
whole = pickle.dumps(seeds["tensor_view"])
(OUT / "cut.pkl").write_bytes(whole[: len(whole) // 2])
(OUT / "wrong_count.pkl").write_bytes(whole.replace(b"\x06\x00\x00\x00\x00\x00\x00\x00", b"\xff\x00\x00\x00\x00\x00\x00\x00", 1))
