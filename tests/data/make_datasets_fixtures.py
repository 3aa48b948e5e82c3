#!/usr/bin/env python3
"""Writes a tiny MNIST-layout tree (tests/data/files/mnist/MNIST/raw/: 5 training and 3 test
images of 28x28, IDX files as torchvision's download leaves them, uncompressed) and
tests/data/datasets_fixtures.spl: what torchvision's MNIST(..., transform=ToTensor()) gives
for them (ToTensor = uint8 / 255 as float32, [1, 28, 28]; torchvision is not installed, so
that is computed here with NumPy), and sklearn's load_digits() values for the digits reader.

    .venv/bin/python tests/data/make_datasets_fixtures.py
"""
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nn"))
from fixture_writer import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RAW = os.path.join(HERE, "files", "mnist", "MNIST", "raw")


def idx(path, array):
    """IDX: 0x00 0x00, type 0x08 (uint8), the number of dimensions, big-endian sizes, data."""
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x08, array.ndim))
        f.write(struct.pack(">" + "I" * array.ndim, *array.shape))
        f.write(array.astype(np.uint8).tobytes())


def main():
    os.makedirs(RAW, exist_ok=True)
    rng = np.random.default_rng(0)
    v = {}
    for split, n in [("train", 5), ("t10k", 3)]:
        images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, size=(n,), dtype=np.uint8)
        idx(os.path.join(RAW, f"{split}-images-idx3-ubyte"), images)
        idx(os.path.join(RAW, f"{split}-labels-idx1-ubyte"), labels)
        v[split + "_len"] = n
        v[split + "_labels"] = [int(x) for x in labels]
        last = (images[-1].astype(np.float32) / 255).reshape(1, 28, 28)
        v[split + "_last_image"] = [float(x) for x in last.reshape(-1).astype(np.float64)]
    write(os.path.join(HERE, "datasets_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
