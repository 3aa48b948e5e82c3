#!/usr/bin/env python3
"""Writes tests/nn/linear_fixtures.spl: torch.nn's Module machinery, Linear, Bilinear,
Identity, the containers and nn.init, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_linear_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, module_case, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Net(nn.Module):
    """The seed 002 model: two Linear layers and a ReLU."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 5)
        self.fc2 = nn.Linear(5, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def main():
    v = {}
    module_case(v, "linear", lambda: nn.Linear(4, 3), lambda: [torch.randn(2, 4, requires_grad=True)], seed=1)
    module_case(v, "linear_nobias", lambda: nn.Linear(5, 2, bias=False), lambda: [torch.randn(3, 5)], seed=2)
    module_case(v, "linear_3d", lambda: nn.Linear(4, 2), lambda: [torch.randn(2, 3, 4)], seed=3)
    module_case(v, "linear_f64", lambda: nn.Linear(3, 2, dtype=torch.float64), lambda: [torch.randn(4, 3, dtype=torch.float64)], seed=4)
    module_case(v, "bilinear", lambda: nn.Bilinear(3, 4, 2), lambda: [torch.randn(5, 3), torch.randn(5, 4)], seed=5)
    module_case(v, "net", Net, lambda: [torch.randn(4, 6)], seed=6)
    module_case(v, "sequential", lambda: nn.Sequential(nn.Linear(3, 4), nn.Identity(), nn.Linear(4, 2)), lambda: [torch.randn(2, 3)], seed=7)

    # ModuleList / ModuleDict names and reprs
    torch.manual_seed(8)
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    v["modulelist_state_keys"] = list(ml.state_dict().keys())
    v["modulelist_params"] = [flat(p) for p in ml.parameters()]
    v["modulelist_repr"] = repr(ml)
    torch.manual_seed(9)
    md = nn.ModuleDict({"enc": nn.Linear(2, 3), "dec": nn.Linear(3, 2)})
    v["moduledict_state_keys"] = list(md.state_dict().keys())
    v["moduledict_repr"] = repr(md)

    # load_state_dict errors (PyTorch's text)
    torch.manual_seed(10)
    net = Net()
    sd = net.state_dict()
    missing = {k: t for k, t in sd.items() if k != "fc2.bias"}
    v["load_missing_error"] = error_text(lambda: net.load_state_dict(missing))
    extra = dict(sd)
    extra["fc3.weight"] = torch.zeros(1)
    v["load_unexpected_error"] = error_text(lambda: net.load_state_dict(extra))
    wrong = dict(sd)
    wrong["fc1.weight"] = torch.zeros(2, 2)
    v["load_shape_error"] = error_text(lambda: net.load_state_dict(wrong))
    r = net.load_state_dict(missing | {"other": torch.zeros(1)}, strict=False)
    v["load_nonstrict_missing"] = list(r.missing_keys)
    v["load_nonstrict_unexpected"] = list(r.unexpected_keys)

    # nn.init: each function after manual_seed, on a fresh tensor
    def init_case(name, seed, shape, fn):
        torch.manual_seed(seed)
        t = torch.empty(*shape)
        fn(t)
        v["init_" + name] = flat(t)

    init_case("uniform", 20, (3, 4), lambda t: nn.init.uniform_(t, -0.5, 2.0))
    init_case("normal", 21, (3, 4), lambda t: nn.init.normal_(t, 1.0, 0.5))
    init_case("constant", 22, (2, 3), lambda t: nn.init.constant_(t, 0.25))
    init_case("eye", 23, (3, 4), nn.init.eye_)
    init_case("xavier_uniform", 24, (5, 3), lambda t: nn.init.xavier_uniform_(t, gain=nn.init.calculate_gain("tanh")))
    init_case("xavier_normal", 25, (5, 3, 2), nn.init.xavier_normal_)
    init_case("kaiming_uniform", 26, (4, 6), lambda t: nn.init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu"))
    init_case("kaiming_normal", 27, (4, 3, 3), lambda t: nn.init.kaiming_normal_(t, a=0.2))
    init_case("orthogonal", 28, (3, 5), lambda t: nn.init.orthogonal_(t, gain=2.0))
    init_case("orthogonal_tall", 29, (5, 3), nn.init.orthogonal_)
    init_case("trunc_normal", 30, (4, 5), lambda t: nn.init.trunc_normal_(t, mean=0.5, std=2.0, a=-1.0, b=3.0))
    v["gains"] = [nn.init.calculate_gain(n) for n in ["linear", "conv2d", "sigmoid", "tanh", "relu", "leaky_relu", "selu"]]
    v["gain_leaky_02"] = nn.init.calculate_gain("leaky_relu", 0.2)
    v["gain_error"] = error_text(lambda: nn.init.calculate_gain("swish"))
    v["fan_error"] = error_text(lambda: nn.init.kaiming_uniform_(torch.empty(3)))
    v["mode_error"] = error_text(lambda: nn.init.kaiming_uniform_(torch.empty(3, 3), mode="fan_avg"))

    write(os.path.join(HERE, "linear_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
