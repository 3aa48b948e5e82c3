#!/usr/bin/env python3
"""Writes tests/optim/convert_parameters_fixtures.spl: torch.nn.utils.parameters_to_vector and
vector_to_parameters on the fixed problem's parameters (trajectory.py) and on a Linear;
gradients through the vector; the aliasing vector_to_parameters leaves; error texts.
Run: .venv/bin/python tests/optim/make_convert_parameters_fixtures.py"""
import os
import sys

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.nn.utils.convert_parameters import _check_param_device

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402
from trajectory import problem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    v = {}
    ps = problem()
    vec = parameters_to_vector(ps)
    v["vec"] = flat(vec)
    v["vec_shape"] = list(vec.shape)
    v["vec_requires_grad"] = vec.requires_grad
    # gradients flow back through the cat of views
    (vec * torch.arange(vec.numel(), dtype=torch.float32).cos()).sum().backward()
    v["vec_grads"] = [flat(p.grad) for p in ps]

    torch.manual_seed(0)
    m = nn.Linear(4, 3)
    v["linear_vec"] = flat(parameters_to_vector(m.parameters()))

    ps = problem()
    n = sum(p.numel() for p in ps)
    new = torch.arange(n, dtype=torch.float32) * 0.5 - 20.0
    vector_to_parameters(new, ps)
    v["set_params"] = [flat(p) for p in ps]
    v["set_shapes"] = [list(p.shape) for p in ps]
    v["set_requires_grad"] = [p.requires_grad and p.is_leaf for p in ps]
    new.mul_(2)         # the parameters now view `new`'s storage
    v["aliased_params"] = [flat(p) for p in ps]

    # a single tensor iterates over its first dimension
    v["tensor_vec"] = flat(parameters_to_vector(torch.arange(6.0).reshape(2, 3).t()))

    ps = problem()
    v["error_not_tensor"] = error_text(lambda: vector_to_parameters([1.0, 2.0], ps))
    v["error_short"] = error_text(lambda: vector_to_parameters(torch.zeros(5), ps))
    v["error_empty"] = error_text(lambda: parameters_to_vector([]))
    v["error_item"] = error_text(lambda: parameters_to_vector([ps[0], 3]))
    # what a CPU parameter after a cuda:0 one meets (no GPU needed to see the text)
    v["error_devices"] = error_text(lambda: _check_param_device(torch.zeros(1), 0))
    write(os.path.join(HERE, "convert_parameters_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
