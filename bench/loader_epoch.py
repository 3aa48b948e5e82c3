#!/usr/bin/env python3
"""The Python side of bench/loader_epoch.spl: torch.utils.data.DataLoader (num_workers=0)
over the same TensorDataset, alone and with the same training step, on the same LibTorch."""
import time

import torch
import torch.nn as nn
from nn_step import step as train_step  # the same manual SGD step as the nn benchmark
from torch.utils.data import DataLoader, TensorDataset


def epoch_ms(ds, model, params):
    g = torch.Generator().manual_seed(0)
    start = time.perf_counter()
    for x, y in DataLoader(ds, batch_size=128, shuffle=True, generator=g):
        if model is not None:
            train_step(model, params, x, y)
    return (time.perf_counter() - start) * 1000


if __name__ == "__main__":
    torch.manual_seed(0)
    ds = TensorDataset(torch.randn(4096, 3, 32, 32), torch.randint(0, 10, (4096,)))
    model = nn.Sequential(nn.Flatten(), nn.Linear(3072, 256), nn.ReLU(), nn.Linear(256, 10))
    params = list(model.parameters())
    for m, what in [(None, "data"), (model, "train")]:
        epoch_ms(ds, m, params)
        best = min(epoch_ms(ds, m, params) for _ in range(3))
        print(f"python loader {what}: {best} ms per epoch")
