#!/usr/bin/env python3
"""Writes tests/nn/param_containers_fixtures.spl: torch.nn.ParameterList and ParameterDict
(names, state_dict keys, reprs, values, errors), by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_param_containers_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = nn.ParameterList([torch.ones(2), torch.zeros(3)])
        self.table = nn.ParameterDict({"w": torch.randn(2, 2), "b": torch.randn(2)})
        self.fc = nn.Linear(2, 1)


def main():
    v = {}
    torch.manual_seed(0)
    pl = nn.ParameterList([torch.randn(2, 3), nn.Parameter(torch.randn(3), requires_grad=False), "hi"])
    pl.append(torch.randn(1, 1).double())
    v["list_repr"] = repr(pl)
    v["list_names"] = [n for n, _ in pl.named_parameters()]
    v["list_keys"] = list(pl.state_dict().keys())
    v["list_values"] = [flat(p) for p in pl.parameters()]
    v["list_requires_grad"] = [p.requires_grad for p in pl.parameters()]
    v["list_one_repr"] = repr(nn.ParameterList([torch.ones(1)]))
    v["list_empty_repr"] = repr(nn.ParameterList())
    v["list_index_error"] = error_text(lambda: pl[4])
    v["list_call_error"] = error_text(lambda: pl(1))
    v["list_extend_error"] = error_text(lambda: pl.extend(torch.ones(2)))

    torch.manual_seed(1)
    pd = nn.ParameterDict({"b": torch.randn(2), "a": nn.Parameter(torch.randn(1, 2).double())})
    pd["c"] = torch.randn(3)
    pd.update([("e", torch.randn(1)), ("d", torch.randn(1))])
    v["dict_repr"] = repr(pd)
    v["dict_names"] = [n for n, _ in pd.named_parameters()]
    v["dict_keys"] = list(pd.keys())
    v["dict_values"] = [flat(p) for p in pd.parameters()]
    popped = pd.pop("a")
    v["dict_popped"] = flat(popped)
    v["dict_after_pop"] = list(pd.keys())
    k, _ = pd.popitem()
    v["dict_popitem_key"] = k
    v["dict_after_popitem"] = list(pd.keys())
    v["dict_pair_error"] = error_text(lambda: pd.update([("x", torch.ones(1), 3)]))
    v["dict_call_error"] = error_text(lambda: pd(1))

    torch.manual_seed(2)
    net = Net()
    v["net_repr"] = repr(net)
    v["net_names"] = [n for n, _ in net.named_parameters()]
    v["net_keys"] = list(net.state_dict().keys())
    v["net_values"] = [flat(p) for p in net.parameters()]
    write(os.path.join(HERE, "param_containers_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
