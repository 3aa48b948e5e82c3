#!/usr/bin/env python3
"""Writes tests/nn/activation_fixtures.spl: torch.nn's activation layers (all but
MultiheadAttention) and torch.nn.functional's activations, run by Python PyTorch on the
pinned wheel. activation_spec.spl lists the same modules in the same order (CASES below).

Each case is a fixtures.module_case under its name: manual_seed(100 + i), construct, set the
training mode, x = (randn(shape) * scale).requires_grad_(), forward, backward with the cos
upstream; recorded: parameters and their names, state_dict keys, repr, output and its shape,
parameter and input gradients.

    .venv/bin/python tests/nn/make_activation_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, module_case, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, constructor, input shape, input scale, training mode); activation_spec.spl's CASES
# mirrors this list line for line.
CASES = [
    ("relu", lambda: nn.ReLU(), (3, 4), 3.0, True),
    ("relu6", lambda: nn.ReLU6(), (3, 4), 5.0, True),
    ("leaky_relu", lambda: nn.LeakyReLU(), (3, 4), 3.0, True),
    ("leaky_relu_02", lambda: nn.LeakyReLU(0.2), (3, 4), 3.0, True),
    ("elu", lambda: nn.ELU(), (3, 4), 3.0, True),
    ("elu_half", lambda: nn.ELU(alpha=0.5), (3, 4), 3.0, True),
    ("selu", lambda: nn.SELU(), (3, 4), 3.0, True),
    ("celu", lambda: nn.CELU(alpha=2.0), (3, 4), 3.0, True),
    ("gelu", lambda: nn.GELU(), (3, 4), 3.0, True),
    ("gelu_tanh", lambda: nn.GELU(approximate="tanh"), (3, 4), 3.0, True),
    ("silu", lambda: nn.SiLU(), (3, 4), 3.0, True),
    ("mish", lambda: nn.Mish(), (3, 4), 3.0, True),
    ("sigmoid", lambda: nn.Sigmoid(), (3, 4), 3.0, True),
    ("tanh", lambda: nn.Tanh(), (3, 4), 3.0, True),
    ("hardtanh", lambda: nn.Hardtanh(), (3, 4), 3.0, True),
    ("hardtanh_range", lambda: nn.Hardtanh(-2.0, 3), (3, 4), 3.0, True),
    ("hardsigmoid", lambda: nn.Hardsigmoid(), (3, 4), 5.0, True),
    ("hardswish", lambda: nn.Hardswish(), (3, 4), 5.0, True),
    ("softplus", lambda: nn.Softplus(), (3, 4), 3.0, True),
    ("softplus_beta", lambda: nn.Softplus(beta=2, threshold=5.0), (3, 4), 3.0, True),
    ("softsign", lambda: nn.Softsign(), (3, 4), 3.0, True),
    ("tanhshrink", lambda: nn.Tanhshrink(), (3, 4), 3.0, True),
    ("softmax", lambda: nn.Softmax(dim=1), (3, 4), 3.0, True),
    ("softmax_last", lambda: nn.Softmax(dim=-1), (2, 3, 4), 3.0, True),
    ("softmax_implicit", lambda: nn.Softmax(), (2, 3, 4), 3.0, True),
    ("log_softmax", lambda: nn.LogSoftmax(dim=0), (3, 4), 3.0, True),
    ("softmin", lambda: nn.Softmin(dim=1), (3, 4), 3.0, True),
    ("softmax2d", lambda: nn.Softmax2d(), (2, 3, 2, 2), 3.0, True),
    ("threshold", lambda: nn.Threshold(0.1, 20), (3, 4), 3.0, True),
    ("glu", lambda: nn.GLU(), (3, 4), 3.0, True),
    ("glu_dim0", lambda: nn.GLU(dim=0), (4, 3), 3.0, True),
    ("hardshrink", lambda: nn.Hardshrink(), (3, 4), 1.0, True),
    ("softshrink", lambda: nn.Softshrink(lambd=1.0), (3, 4), 3.0, True),
    ("logsigmoid", lambda: nn.LogSigmoid(), (3, 4), 3.0, True),
    ("rrelu_train", lambda: nn.RReLU(), (3, 4), 3.0, True),
    ("rrelu_eval", lambda: nn.RReLU(0.1, 0.3), (3, 4), 3.0, False),
    ("prelu", lambda: nn.PReLU(), (3, 4), 3.0, True),
    ("prelu_channels", lambda: nn.PReLU(3, 0.1), (2, 3, 4), 3.0, True),
]


def main():
    warnings.simplefilter("ignore")  # Softmax without dim: PyTorch's deprecation warning
    v = {"act_names": [c[0] for c in CASES]}
    for i, (name, make, shape, scale, train) in enumerate(CASES):
        module_case(v, name, make, lambda: [(torch.randn(*shape) * scale).requires_grad_()], seed=100 + i, train=train)

    v["inplace_reprs"] = [repr(m) for m in [nn.ReLU(inplace=True), nn.ELU(alpha=0.5, inplace=True), nn.Hardtanh(inplace=True),
                                              nn.LeakyReLU(0.2, True), nn.Hardsigmoid(inplace=True), nn.Threshold(0.1, 20, True),
                                              nn.RReLU(0.1, 0.3, inplace=True), nn.SELU(inplace=True), nn.ReLU6(inplace=True),
                                              nn.Softmin(), nn.SiLU(inplace=True), nn.Mish(inplace=True), nn.Hardswish(inplace=True),
                                              nn.CELU(inplace=True), nn.LogSoftmax(dim=2), nn.PReLU(num_parameters=4)]]

    # functional: in-place forms on a copy, dtype, rrelu's random slopes
    torch.manual_seed(200)
    x = torch.randn(3, 4) * 3
    for name, f in [("relu", lambda t: F.relu(t, inplace=True)), ("relu6", lambda t: F.relu6(t, inplace=True)),
                    ("elu", lambda t: F.elu(t, 0.5, inplace=True)), ("selu", lambda t: F.selu(t, inplace=True)),
                    ("celu", lambda t: F.celu(t, 1.5, inplace=True)), ("leaky_relu", lambda t: F.leaky_relu(t, 0.3, inplace=True)),
                    ("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5, inplace=True)), ("threshold", lambda t: F.threshold(t, 0.5, -1.0, inplace=True)),
                    ("hardsigmoid", lambda t: F.hardsigmoid(t, inplace=True)), ("silu", lambda t: F.silu(t, inplace=True)),
                    ("mish", lambda t: F.mish(t, inplace=True)), ("hardswish", lambda t: F.hardswish(t, inplace=True))]:
        y = x.clone()
        r = f(y)
        v["inplace_" + name] = flat(y)
        v["inplace_" + name + "_same"] = r.data_ptr() == y.data_ptr()
    v["f_softmax_f64"] = flat(F.softmax(x, dim=1, dtype=torch.float64))
    v["f_softmax_f64_dtype"] = str(F.softmax(x, dim=1, dtype=torch.float64).dtype).replace("torch.", "")
    v["f_log_softmax_implicit"] = flat(F.log_softmax(x))
    v["f_softmin_implicit_1d"] = flat(F.softmin(x[0]))
    v["f_gelu_tanh"] = flat(F.gelu(x, approximate="tanh"))
    v["f_prelu"] = flat(F.prelu(x, torch.tensor([0.1, 0.2, 0.3, 0.4]).reshape(1, 4)[0][:1]))
    torch.manual_seed(201)
    x = torch.randn(3, 4)
    v["f_rrelu_train"] = flat(F.rrelu(x, 0.2, 0.4, training=True))
    v["f_rrelu_eval"] = flat(F.rrelu(x, 0.2, 0.4))

    v["err_hardtanh_f"] = error_text(lambda: F.hardtanh(torch.randn(2), 2.0, 1.0))
    v["err_hardtanh_m"] = error_text(lambda: nn.Hardtanh(1.0, 1.0))
    v["err_glu_scalar"] = error_text(lambda: F.glu(torch.tensor(1.0)))
    v["err_glu_odd"] = error_text(lambda: nn.GLU()(torch.randn(2, 3)))
    v["err_softmax2d"] = error_text(lambda: nn.Softmax2d()(torch.randn(2, 3)))
    v["err_prelu_channels"] = error_text(lambda: nn.PReLU(3)(torch.randn(2, 4)))

    write(os.path.join(HERE, "activation_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
