#!/usr/bin/env python3
"""Writes tests/nn/models_fixtures.spl: whole models built from torch.nn as a user writes
them (a CNN with BatchNorm, a module with a non-persistent buffer), the distance modules and
TripletMarginWithDistanceLoss, by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_models_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, module_case, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(6, 12, 3), nn.BatchNorm2d(12), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.dropout = nn.Dropout(0.25)
        self.head = nn.Linear(48, 5)

    def forward(self, x):
        return self.head(self.dropout(self.features(x)))


class Scaled(nn.Module):
    """A buffer kept out of the state_dict (persistent=False) next to a persistent one."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.register_buffer("scale", torch.full((2,), 2.0))
        self.register_buffer("cache", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.lin(x) * self.scale + self.cache


def main():
    v = {}
    # The CNN in train mode (dropout masks and batch statistics), then the same after eval().
    m, _ = module_case(v, "cnn", CNN, lambda: [torch.randn(4, 1, 10, 10, requires_grad=True)], seed=11)
    v["cnn_buffer_names"] = [n for n, _ in m.named_buffers()]
    v["cnn_running_mean"] = flat(m.features[1].running_mean)
    v["cnn_running_var"] = flat(m.features[5].running_var)
    module_case(v, "cnn_eval", CNN, lambda: [torch.randn(4, 1, 10, 10, requires_grad=True)], seed=12, train=False)
    m, _ = module_case(v, "scaled", Scaled, lambda: [torch.randn(4, 3, requires_grad=True)], seed=13)
    v["scaled_buffer_names"] = [n for n, _ in m.named_buffers()]
    torch.manual_seed(14)
    a, p, n = torch.randn(4, 3, requires_grad=True), torch.randn(4, 3), torch.randn(4, 3)
    loss = nn.TripletMarginWithDistanceLoss()
    v["triplet_distance_repr"] = repr(loss)
    out = loss(a, p, n)
    out.backward()
    v["triplet_distance"] = out.item()
    v["triplet_distance_grad"] = flat(a.grad)
    v["cosine_similarity"] = flat(nn.CosineSimilarity(dim=0)(p, n))
    v["pairwise_distance"] = flat(nn.PairwiseDistance(p=1.0, keepdim=True)(p, n))
    write(os.path.join(HERE, "models_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
