#!/usr/bin/env python3
"""Writes tests/amp/channels_last_fixtures.spl: a channels_last input through Conv2d,
BatchNorm2d, ReLU, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d in the pinned PyTorch: each layer's
output (values, strides, whether channels_last-contiguous), then, after a backward with
fixtures.py's upstream gradient, every output's and the input's gradient (strides, format)
and the parameters' gradients.

    .venv/bin/python tests/amp/make_channels_last_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, upstream, write  # noqa: E402

CL = torch.channels_last


def layers():
    return [nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
            nn.AvgPool2d(2, stride=1), nn.AdaptiveAvgPool2d((2, 2))]


v = {}
torch.manual_seed(0)
model = layers()
x = torch.randn(2, 3, 8, 8)
v["contiguous_strides"] = list(x.contiguous(memory_format=CL).stride())
v["plain_is_cl"] = x.is_contiguous(memory_format=CL)
ramp = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8).sin()
v["to_strides"] = list(ramp.to(memory_format=CL).stride())
v["to_float64_strides"] = list(ramp.to(torch.float64, memory_format=CL).stride())
v["to_values"] = flat(ramp.to(memory_format=CL))
x = x.contiguous(memory_format=CL).requires_grad_()
outs = []
h = x
for m in model:
    h = m(h)
    h.retain_grad()
    outs.append(h)
v["out"] = [flat(o) for o in outs]
v["out_strides"] = [list(o.stride()) for o in outs]
v["out_is_cl"] = [o.is_contiguous(memory_format=CL) for o in outs]
(h * upstream(h).contiguous(memory_format=CL)).sum().backward()  # a channels_last upstream gradient
v["grad_strides"] = [list(o.grad.stride()) for o in outs]
v["grad_is_cl"] = [o.grad.is_contiguous(memory_format=CL) for o in outs]
v["grad"] = [flat(o.grad) for o in outs]
v["input_grad"] = flat(x.grad)
v["input_grad_strides"] = list(x.grad.stride())
params = [p for m in model for p in m.parameters()]
v["param_grads"] = [flat(p.grad) for p in params]
v["param_grad_strides"] = [list(p.grad.stride()) for p in params]
write(os.path.join(HERE, "channels_last_fixtures.spl"), __file__, v)
