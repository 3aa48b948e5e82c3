#!/usr/bin/env python3
"""Writes tests/nn/lazy_fixtures.spl: the Lazy modules (LazyLinear, LazyConv*d,
LazyConvTranspose*d, LazyBatchNorm*d, LazyInstanceNorm*d) before and after their first call —
reprs, state_dict, the initialisation drawn at the first call, outputs and gradients — and
load_state_dict into an uninitialised one, by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_lazy_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (constructor, input shape); the spec builds the same.
CASES = {
    "linear": (lambda: nn.LazyLinear(4), [2, 3]),
    "linear_nobias": (lambda: nn.LazyLinear(3, bias=False), [2, 5, 2]),
    "conv1d": (lambda: nn.LazyConv1d(4, 3, stride=2, padding=1), [2, 3, 7]),
    "conv2d": (lambda: nn.LazyConv2d(4, 3, groups=2, padding_mode="reflect", padding=1), [2, 4, 5, 5]),
    "conv3d": (lambda: nn.LazyConv3d(2, 2, bias=False), [1, 2, 3, 3, 3]),
    "conv_transpose1d": (lambda: nn.LazyConvTranspose1d(2, 3, stride=2), [2, 3, 4]),
    "conv_transpose2d": (lambda: nn.LazyConvTranspose2d(4, 2, groups=2, output_padding=1, stride=2), [1, 2, 3, 3]),
    "conv_transpose3d": (lambda: nn.LazyConvTranspose3d(2, 2), [2, 3, 2, 2]),
    "batchnorm1d": (lambda: nn.LazyBatchNorm1d(), [4, 3]),
    "batchnorm2d": (lambda: nn.LazyBatchNorm2d(momentum=0.2), [2, 3, 2, 2]),
    "batchnorm3d": (lambda: nn.LazyBatchNorm3d(affine=False), [2, 2, 2, 2, 2]),
    "instancenorm1d": (lambda: nn.LazyInstanceNorm1d(), [2, 3, 4]),
    "instancenorm2d": (lambda: nn.LazyInstanceNorm2d(affine=True, track_running_stats=True), [2, 3, 2, 3]),
    "instancenorm3d": (lambda: nn.LazyInstanceNorm3d(affine=True), [1, 2, 2, 2, 3]),
}


def lazy_case(v, name, make, shape, seed):
    torch.manual_seed(seed)
    m = make()
    v[name + "_repr_before"] = repr(m)
    v[name + "_uninitialized"] = m.has_uninitialized_params()
    sd = m.state_dict()
    v[name + "_state_before"] = [k + ": " + repr(t) for k, t in sd.items()]
    x = torch.randn(*shape, requires_grad=True)
    out = m(x)
    v[name + "_repr_after"] = repr(m)
    v[name + "_param_names"] = [n for n, _ in m.named_parameters()]
    v[name + "_state_keys"] = list(m.state_dict().keys())
    v[name + "_out"] = flat(out)
    v[name + "_out_shape"] = list(out.shape)
    # the initialisation the first call drew, before backward
    v[name + "_params"] = [flat(p) for p in m.parameters()]
    v[name + "_buffers"] = [flat(b) for b in m.buffers()]
    (out * upstream(out)).sum().backward()
    v[name + "_grads"] = [flat(p.grad) for p in m.parameters()]
    v[name + "_input_grad"] = flat(x.grad)


def main():
    v = {}
    for i, (name, (make, shape)) in enumerate(CASES.items()):
        lazy_case(v, name, make, shape, 40 + i)

    # a second call does not draw again; reset_parameters draws as the class it became
    torch.manual_seed(60)
    m = nn.LazyLinear(2)
    m(torch.ones(1, 3))
    v["second_call_out"] = flat(m(torch.ones(1, 3)))
    m.reset_parameters()
    v["reset_params"] = [flat(p) for p in m.parameters()]

    # load_state_dict into an uninitialised module: it takes the loaded shapes
    torch.manual_seed(61)
    src = nn.Linear(3, 2)
    lazy = nn.LazyLinear(2)
    lazy.load_state_dict(src.state_dict())
    v["loaded_uninitialized"] = lazy.has_uninitialized_params()
    v["loaded_repr"] = repr(lazy)
    v["loaded_params"] = [flat(p) for p in lazy.parameters()]
    v["loaded_out"] = flat(lazy(torch.ones(1, 3)))
    v["loaded_repr_after"] = repr(lazy)
    # an uninitialised state dict into an initialised module
    v["load_uninitialized_error"] = error_text(lambda: nn.Linear(3, 2).load_state_dict(nn.LazyLinear(2).state_dict()))
    # errors at the first call
    v["conv_rank_error"] = error_text(lambda: nn.LazyConv2d(4, 3)(torch.ones(3)))
    v["conv_groups_error"] = error_text(lambda: nn.LazyConv2d(4, 3, groups=2)(torch.ones(1, 3, 5, 5)))
    # inside a model, as the mixin's docstring shows
    torch.manual_seed(62)
    net = nn.Sequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(1))
    v["net_repr_before"] = repr(net)
    v["net_out"] = flat(net(torch.randn(3, 4)))
    v["net_repr_after"] = repr(net)
    v["net_params"] = [flat(p) for p in net.parameters()]
    # to(float64) before the first call: the parameters are made float64
    m = nn.LazyLinear(2).double()
    m(torch.ones(1, 3, dtype=torch.float64))
    v["double_dtype"] = str(m.weight.dtype).replace("torch.", "")
    write(os.path.join(HERE, "lazy_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
