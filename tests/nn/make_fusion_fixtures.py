#!/usr/bin/env python3
"""Writes tests/nn/fusion_fixtures.spl: torch.nn.utils.fuse_conv_bn_eval / fuse_linear_bn_eval
and their _weights forms, convert_conv2d/3d_weight_memory_format and skip_init, by Python
PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_fusion_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn
from torch.nn.utils import (convert_conv2d_weight_memory_format, convert_conv3d_weight_memory_format,
                            fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, skip_init)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def trained_bn(bn, layer, x):
    """One training step of statistics (so running_mean/var are not 0/1), then eval."""
    with torch.no_grad():
        bn(layer(x))
    bn.eval()
    layer.eval()
    return bn


def main():
    v = {}
    # name, layer, bn, input shape, transpose
    cases = [
        ("conv2d", lambda: nn.Conv2d(2, 3, 3), lambda: nn.BatchNorm2d(3), [4, 2, 5, 5], False),
        ("conv1d_nobias", lambda: nn.Conv1d(2, 4, 2, bias=False), lambda: nn.BatchNorm1d(4, affine=False), [3, 2, 6], False),
        ("convt2d", lambda: nn.ConvTranspose2d(3, 2, 2), lambda: nn.BatchNorm2d(2), [2, 3, 3, 3], True),
    ]
    for name, make, make_bn, shape, transpose in cases:
        torch.manual_seed(3)
        layer = make()
        bn = make_bn()
        bn = trained_bn(bn, layer, torch.randn(shape))
        fused = fuse_conv_bn_eval(layer, bn, transpose=transpose)
        x = torch.randn(shape)
        v[name + "_names"] = [n for n, _ in fused.named_parameters()]
        v[name + "_params"] = [flat(p) for p in fused.parameters()]
        v[name + "_out"] = flat(fused(x))
        v[name + "_repr"] = repr(fused)
    torch.manual_seed(4)
    lin = nn.Linear(3, 4)
    bn = trained_bn(nn.BatchNorm1d(4), lin, torch.randn(5, 3))
    fused = fuse_linear_bn_eval(lin, bn)
    x = torch.randn(2, 3)
    v["linear_params"] = [flat(p) for p in fused.parameters()]
    v["linear_out"] = flat(fused(x))
    v["linear_requires_grad"] = [p.requires_grad for p in fused.parameters()]
    # the _weights form with no conv bias and no affine, in float64
    torch.manual_seed(5)
    w = torch.randn(3, 2, 2, dtype=torch.float64)
    rm = torch.randn(3, dtype=torch.float64)
    rv = torch.rand(3, dtype=torch.float64) + 0.5
    fw, fb = fuse_conv_bn_weights(w, None, rm, rv, 1e-3, None, None)
    v["weights_w"] = flat(fw)
    v["weights_b"] = flat(fb)
    v["weights_requires_grad"] = [fw.requires_grad, fb.requires_grad]
    # errors
    bn_train = nn.BatchNorm2d(3)
    v["train_error"] = error_text(lambda: fuse_conv_bn_eval(nn.Conv2d(2, 3, 1).eval(), bn_train))
    v["linear_features_error"] = error_text(lambda: fuse_linear_bn_eval(nn.Linear(2, 3).eval(), nn.BatchNorm1d(4).eval()))
    # memory formats
    torch.manual_seed(6)
    model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.Sequential(nn.ConvTranspose2d(3, 2, 2)), nn.Conv3d(1, 2, 2))
    before = [flat(p) for p in model.parameters()]
    convert_conv2d_weight_memory_format(model, torch.channels_last)
    v["mf2_strides"] = [list(model[0].weight.stride()), list(model[1][0].weight.stride()), list(model[2].weight.stride())]
    convert_conv3d_weight_memory_format(model, torch.channels_last_3d)
    v["mf3_stride"] = list(model[2].weight.stride())
    v["mf_same_values"] = before == [flat(p) for p in model.parameters()]
    # skip_init draws nothing
    torch.manual_seed(7)
    m = skip_init(nn.Linear, 4, 3)
    v["skip_names"] = [n for n, _ in m.named_parameters()]
    v["skip_shapes"] = [list(p.shape) for p in m.parameters()]
    v["skip_requires_grad"] = [p.requires_grad for p in m.parameters()]
    v["skip_device"] = str(m.weight.device)
    v["skip_next"] = torch.rand(1).item()
    write(os.path.join(HERE, "fusion_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
