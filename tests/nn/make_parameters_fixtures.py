#!/usr/bin/env python3
"""Writes tests/nn/parameters_fixtures.spl: what is a parameter, a buffer or a plain tensor
attribute of a module (a stored mask is neither), frozen parameters, nn.Parameter / nn.Buffer
and their reprs, register_buffer / register_parameter and their errors, by Python PyTorch on
the pinned wheel.

    .venv/bin/python tests/nn/make_parameters_fixtures.py
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Masked(nn.Module):
    """Issue 24's model: a plain tensor attribute (a mask) next to a Linear."""

    def __init__(self):
        super().__init__()
        self.mask = torch.tensor([1.0, 0.0, 1.0])
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x * self.mask)


class Roles(nn.Module):
    """A field of each kind: Parameter, Buffer, non-persistent Buffer, plain tensor."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(2, 3))
        self.running = nn.Buffer(torch.zeros(3))
        self.scratch = nn.Buffer(torch.ones(2), persistent=False)
        self.plain = torch.ones(3)

    def forward(self, x):
        return (x * self.plain + self.running) @ self.w.t() + self.scratch


def key_error(fn):
    """A KeyError's message (str() of a KeyError adds quotes) or any other error's text."""
    try:
        fn()
    except KeyError as e:
        return e.args[0]
    except Exception as e:
        return str(e)
    raise AssertionError("expected an error")


def main():
    v = {}
    # the mask case
    torch.manual_seed(21)
    m = Masked()
    v["masked_param_names"] = [n for n, _ in m.named_parameters()]
    v["masked_state_keys"] = list(m.state_dict().keys())
    v["masked_buffer_names"] = [n for n, _ in m.named_buffers()]
    v["masked_repr"] = repr(m)
    sd = m.state_dict()
    v["masked_state_values"] = [flat(t) for t in sd.values()]
    v["masked_state_shapes"] = [list(t.shape) for t in sd.values()]
    x = torch.randn(4, 3)
    v["masked_out"] = flat(m(x))
    # a state dict with the mask in it is refused by a strict load
    bad = dict(sd)
    bad["mask"] = torch.ones(3)
    v["masked_unexpected_error"] = key_error(lambda: Masked().load_state_dict(bad))
    v["masked_nonstrict"] = [list(r) for r in Masked().load_state_dict(bad, strict=False)]
    m.double()
    v["masked_double_dtypes"] = [str(m.fc.weight.dtype).replace("torch.", ""), str(m.mask.dtype).replace("torch.", "")]

    # a frozen layer stays a parameter
    torch.manual_seed(22)
    lin = nn.Linear(3, 2)
    lin.weight.requires_grad_(False)
    v["frozen_param_names"] = [n for n, _ in lin.named_parameters()]
    v["frozen_state_keys"] = list(lin.state_dict().keys())
    lin.to(torch.float64)
    v["frozen_dtypes"] = [str(p.dtype).replace("torch.", "") for p in lin.parameters()]
    v["frozen_requires_grad"] = [p.requires_grad for p in lin.parameters()]
    m2 = Masked()
    m2.requires_grad_(False)
    v["frozen_model_param_names"] = [n for n, _ in m2.named_parameters()]

    # Parameter, Buffer: reprs and flags
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    v["parameter_repr"] = repr(p)
    v["parameter_frozen_repr"] = repr(nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False))
    v["parameter_empty_repr"] = repr(nn.Parameter())
    v["parameter_detach_repr"] = repr(p.detach())
    p.requires_grad_(False)
    v["parameter_after_freeze_repr"] = repr(p)
    v["buffer_repr"] = repr(nn.Buffer(torch.tensor([1.0, 2.0])))
    v["buffer_keeps_requires_grad"] = nn.Buffer(torch.tensor([1.0], requires_grad=True)).requires_grad

    # a module with a field of each kind
    torch.manual_seed(23)
    r = Roles()
    v["roles_param_names"] = [n for n, _ in r.named_parameters()]
    v["roles_buffer_names"] = [n for n, _ in r.named_buffers()]
    v["roles_state_keys"] = list(r.state_dict().keys())
    x = torch.randn(4, 3)
    out = r(x)
    v["roles_out"] = flat(out)
    out.sum().backward()
    v["roles_w_grad"] = flat(r.w.grad)
    r.double()
    v["roles_double_dtypes"] = [str(t.dtype).replace("torch.", "") for t in (r.w, r.running, r.scratch, r.plain)]
    # register_buffer / register_parameter, and their refusals
    r.register_buffer("extra", torch.full((2,), 5.0), persistent=True)
    v["roles_registered_state_keys"] = list(r.state_dict().keys())
    r2 = Roles()
    r2.register_parameter("extra", nn.Parameter(torch.zeros(2)))
    v["roles_registered_param_names"] = [n for n, _ in r2.named_parameters()]
    v["register_dot_error"] = key_error(lambda: Roles().register_buffer("a.b", torch.ones(1)))
    v["register_empty_error"] = key_error(lambda: Roles().register_buffer("", torch.ones(1)))
    v["register_param_dot_error"] = key_error(lambda: Roles().register_parameter("a.b", None))
    v["register_exists_error"] = key_error(lambda: Roles().register_buffer("w", torch.ones(1)))
    v["register_plain_param_error"] = key_error(lambda: Roles().register_parameter("extra", torch.ones(1)))
    v["register_plain_double_param_error"] = key_error(lambda: Roles().register_parameter("extra", torch.ones(1, dtype=torch.float64)))
    write(os.path.join(HERE, "parameters_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
