#!/usr/bin/env python3
"""Writes tiny MNIST- and FashionMNIST-layout trees (tests/data/files/mnist/MNIST/raw/: 5
training and 3 test images of 28x28; tests/data/files/fashion/FashionMNIST/raw/: 4 and 2; IDX
files as torchvision's download leaves them, uncompressed) and tests/data/datasets_fixtures.spl:
what torchvision's own datasets.MNIST / FashionMNIST(root, train, transform=ToTensor()) give
when they read those files (the torchvision pinned in scripts/setup.sh; nothing downloaded).

    .venv/bin/python tests/data/make_datasets_fixtures.py
"""
import os
import struct
import sys

import numpy as np
import torch
from torchvision.datasets import MNIST, FashionMNIST
from torchvision.transforms import ToTensor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TREES = [("mnist", MNIST, {"train": 5, "t10k": 3}, 0), ("fashion", FashionMNIST, {"train": 4, "t10k": 2}, 1)]


def idx(path, array):
    """IDX: 0x00 0x00, type 0x08 (uint8), the number of dimensions, big-endian sizes, data."""
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x08, array.ndim))
        f.write(struct.pack(">" + "I" * array.ndim, *array.shape))
        f.write(array.astype(np.uint8).tobytes())


def main():
    v = {}
    for folder, dataset, sizes, seed in TREES:
        root = os.path.join(HERE, "files", folder)
        raw = os.path.join(root, dataset.__name__, "raw")
        os.makedirs(raw, exist_ok=True)
        rng = np.random.default_rng(seed)
        for split, n in sizes.items():
            idx(os.path.join(raw, f"{split}-images-idx3-ubyte"), rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8))
            idx(os.path.join(raw, f"{split}-labels-idx1-ubyte"), rng.integers(0, 10, size=(n,), dtype=np.uint8))
        for split, train in (("train", True), ("t10k", False)):
            ds = dataset(root, train=train, transform=ToTensor(), download=False)
            key = f"{folder}_{split}"
            v[key + "_len"] = len(ds)
            v[key + "_labels"] = [ds[i][1] for i in range(len(ds))]
            image = ds[len(ds) - 1][0]
            v[key + "_last_image"] = flat(image)
            v[key + "_last_image_shape"] = list(image.shape)
            v[key + "_last_image_dtype"] = str(image.dtype).replace("torch.", "")
            v[key + "_data_shape"] = list(ds.data.shape)
            v[key + "_data_dtype"] = str(ds.data.dtype).replace("torch.", "")
            v[key + "_targets_dtype"] = str(ds.targets.dtype).replace("torch.", "")
    write(os.path.join(HERE, "datasets_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
