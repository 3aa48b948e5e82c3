#!/usr/bin/env python3
"""Writes tests/data/boundary_fixtures.spl: values at the edges that the mutation check
(scripts/mutation_check.sh) found untested, from PyTorch and sklearn on the pin:
- len() of BatchSampler and DataLoader, and the batches, when the batch size divides the
  length evenly, does not, is larger than it, and for an empty dataset, with and without
  drop_last;
- accuracy() on two-column scores with tied rows (sklearn's rule, the higher column first,
  as top_k_accuracy_score applies it to more columns: the same rows with a third column that
  never wins).
Run: .venv/bin/python tests/data/make_boundary_fixtures.py"""
import os
import sys

import sklearn
import torch
from sklearn import metrics as M
from torch.utils.data import BatchSampler, DataLoader, SequentialSampler

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)

# (dataset length, batch size)
SIZES = [(8, 4), (9, 4), (3, 4), (4, 4), (1, 1), (0, 2)]
TIE_SCORES = [[0.5, 0.5], [0.2, 0.8], [0.7, 0.3], [0.4, 0.4], [0.9, 0.9]]
TIE_TARGET = [1, 1, 0, 1, 0]


def main():
    v = {"sizes": [list(s) for s in SIZES]}
    for drop_last in (False, True):
        key = "drop" if drop_last else "keep"
        v[f"batch_sampler_len_{key}"] = [len(BatchSampler(SequentialSampler(range(n)), b, drop_last)) for n, b in SIZES]
        v[f"batch_sampler_batches_{key}"] = [list(BatchSampler(SequentialSampler(range(n)), b, drop_last)) for n, b in SIZES]
        v[f"dataloader_len_{key}"] = [len(DataLoader(list(range(n)), batch_size=b, drop_last=drop_last)) for n, b in SIZES]
    v["tie_scores"] = TIE_SCORES
    v["tie_target"] = TIE_TARGET
    padded = [row + [min(row) - 1.0] for row in TIE_SCORES]
    v["tie_accuracy"] = float(M.top_k_accuracy_score(TIE_TARGET, padded, k=1, labels=[0, 1, 2]))
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "boundary_fixtures.spl"), __file__, v,
          also=f" and sklearn {sklearn.__version__}")


if __name__ == "__main__":
    main()
