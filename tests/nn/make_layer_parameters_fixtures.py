#!/usr/bin/env python3
"""Writes tests/nn/layer_parameters_fixtures.spl: the built-in layers' parameters as
nn.Parameter: their printed form (`Parameter containing:` ...), Embedding / EmbeddingBag
from_pretrained frozen and not (names, state_dict keys, requires_grad), and a
TransformerEncoder's copies of a layer with a frozen parameter and a buffer, by Python
PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_layer_parameters_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Each layer built after manual_seed(0), in the spec's order.
LAYERS = {
    "linear": lambda: nn.Linear(3, 2),
    "bilinear": lambda: nn.Bilinear(2, 2, 1),
    "conv2d": lambda: nn.Conv2d(1, 2, 2),
    "conv_transpose1d": lambda: nn.ConvTranspose1d(2, 1, 2),
    "layer_norm": lambda: nn.LayerNorm(3),
    "group_norm": lambda: nn.GroupNorm(1, 2),
    "rms_norm": lambda: nn.RMSNorm([2]),
    "batch_norm": lambda: nn.BatchNorm1d(2),
    "instance_norm": lambda: nn.InstanceNorm1d(2, affine=True),
    "prelu": lambda: nn.PReLU(),
    "embedding": lambda: nn.Embedding(3, 2),
    "embedding_bag": lambda: nn.EmbeddingBag(3, 2),
    "rnn": lambda: nn.RNN(2, 2),
    "lstm_cell": lambda: nn.LSTMCell(1, 1),
    "attention": lambda: nn.MultiheadAttention(2, 1, kdim=3, add_bias_kv=True),
}


def roles(v, name, m):
    v[name + "_param_names"] = [n for n, _ in m.named_parameters()]
    v[name + "_requires_grad"] = [p.requires_grad for p in m.parameters()]
    v[name + "_state_keys"] = list(m.state_dict().keys())


def main():
    v = {}
    for name, make in LAYERS.items():
        torch.manual_seed(0)
        m = make()
        v[name + "_strs"] = [str(p) for p in m.parameters()]
    # A frozen parameter prints without requires_grad; a Linear frozen after construction.
    torch.manual_seed(0)
    lin = nn.Linear(2, 1)
    lin.weight.requires_grad_(False)
    v["frozen_linear_strs"] = [str(p) for p in lin.parameters()]

    # Embedding(s) over a pretrained table, frozen (the default) and not.
    torch.manual_seed(3)
    table = torch.randn(4, 3)
    v["table"] = flat(table)
    roles(v, "pretrained_frozen", nn.Embedding.from_pretrained(table))
    v["pretrained_frozen_str"] = str(nn.Embedding.from_pretrained(table).weight)
    roles(v, "pretrained_trained", nn.Embedding.from_pretrained(table, freeze=False))
    roles(v, "bag_frozen", nn.EmbeddingBag.from_pretrained(table))
    roles(v, "bag_trained", nn.EmbeddingBag.from_pretrained(table, freeze=False))
    torch.manual_seed(4)
    e = nn.Embedding(4, 3, _freeze=True)
    roles(v, "freeze_arg", e)
    v["freeze_arg_weight"] = flat(e.weight)

    # TransformerEncoder deep-copies its layer: a frozen parameter stays a (frozen)
    # parameter, a buffer stays a buffer.
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0)
    layer.linear1.weight.requires_grad_(False)
    del layer.linear2.bias
    layer.linear2.register_buffer("bias", torch.arange(4.0))
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    roles(v, "encoder", enc)
    v["encoder_buffer_names"] = [n for n, _ in enc.named_buffers()]
    v["encoder_frozen_str"] = str(enc.layers[1].linear1.weight)
    write(os.path.join(HERE, "layer_parameters_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
