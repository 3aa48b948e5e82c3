#!/usr/bin/env python3
"""Writes tests/nn/weight_norm_fixtures.spl: torch.nn.utils.weight_norm / remove_weight_norm
and spectral_norm / remove_spectral_norm (the hook-based API): values after the seed, names,
state_dict keys, gradients, the buffers after power iterations, errors; by Python PyTorch on
the pinned wheel.

    .venv/bin/python tests/nn/make_weight_norm_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
warnings.simplefilter("ignore", FutureWarning)  # weight_norm is deprecated in PyTorch


def names_and_keys(v, key, m):
    v[key + "_names"] = [n for n, _ in m.named_parameters()]
    v[key + "_keys"] = list(m.state_dict().keys())


def main():
    v = {}
    # weight_norm on a Linear (dim 0), a Conv2d with dim None, and a Conv1d's bias-free weight with dim 1
    for key, make, dim, shape in [("wn_linear", lambda: nn.Linear(3, 4), 0, [2, 3]),
                                  ("wn_conv_all", lambda: nn.Conv2d(2, 3, 2), None, [1, 2, 3, 3]),
                                  ("wn_conv1d_dim1", lambda: nn.Conv1d(2, 3, 2, bias=False), 1, [2, 2, 4])]:
        torch.manual_seed(0)
        m = weight_norm(make(), dim=dim)
        names_and_keys(v, key, m)
        v[key + "_params"] = [flat(p) for p in m.parameters()]
        x = torch.randn(shape)
        out = m(x)
        (out * upstream(out)).sum().backward()
        v[key + "_out"] = flat(out)
        v[key + "_grads"] = [flat(p.grad) for p in m.parameters()]
        with torch.no_grad():
            m.weight_g.mul_(2.0)  # the hook recomputes weight before the next forward
        v[key + "_out2"] = flat(m(x))
        remove_weight_norm(m)
        v[key + "_removed_names"] = sorted(n for n, _ in m.named_parameters())
        v[key + "_removed_weight"] = flat(m.weight)
    m = weight_norm(nn.Linear(2, 2))
    v["wn_twice_error"] = error_text(lambda: weight_norm(m))
    v["wn_missing_error"] = error_text(lambda: remove_weight_norm(nn.Linear(2, 2)))
    # spectral_norm: a Linear, a ConvTranspose2d (dim 1) with 3 iterations, eval mode skips the iteration
    for key, make, iters, shape in [("sn_linear", lambda: nn.Linear(3, 4), 1, [2, 3]),
                                    ("sn_convt", lambda: nn.ConvTranspose2d(2, 3, 2), 3, [1, 2, 2, 2])]:
        torch.manual_seed(1)
        m = spectral_norm(make(), n_power_iterations=iters)
        names_and_keys(v, key, m)
        v[key + "_buffers"] = [flat(b) for b in m.buffers()]
        x = torch.randn(shape)
        out = m(x)
        (out * upstream(out)).sum().backward()
        v[key + "_out"] = flat(out)
        v[key + "_grads"] = [flat(p.grad) for p in m.parameters()]
        out2 = m(x)
        v[key + "_out2"] = flat(out2)
        v[key + "_buffers2"] = [flat(b) for b in m.buffers()]
        remove_spectral_norm(m)
        v[key + "_removed_names"] = sorted(n for n, _ in m.named_parameters())
        v[key + "_removed_weight"] = flat(m.weight)
    # in eval mode the power iteration stops: the buffers stay, the output uses them as they are
    torch.manual_seed(2)
    m = spectral_norm(nn.Linear(3, 4))
    x = torch.randn(2, 3)
    m(x)
    m.eval()
    before = [flat(b) for b in m.buffers()]
    out = m(x)
    v["sn_eval"] = [before, [flat(b) for b in m.buffers()], flat(out), m.training]
    v["sn_iterations_error"] = error_text(lambda: spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
    m = spectral_norm(nn.Linear(2, 2))
    v["sn_twice_error"] = error_text(lambda: spectral_norm(m))
    v["sn_missing_error"] = error_text(lambda: remove_spectral_norm(nn.Linear(2, 2)))
    write(os.path.join(HERE, "weight_norm_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
