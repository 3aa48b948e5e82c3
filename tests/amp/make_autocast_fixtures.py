#!/usr/bin/env python3
"""Writes tests/amp/autocast_fixtures.spl: under CPU autocast (bfloat16, then float16) the dtype
and the values of each operation of autocast_spec.spl's table, by Python PyTorch on the pinned
wheel; the same table without autocast (float32 everywhere); the warning and error texts.

    .venv/bin/python tests/amp/make_autocast_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402


def inputs():
    """The spec draws the same tensors in the same order."""
    torch.manual_seed(0)
    t = {}
    for name, shape in [("x", [4, 8]), ("w", [6, 8]), ("b", [6]), ("q", [8, 5]), ("c", [4, 5]),
                        ("b1", [2, 4, 8]), ("b2", [2, 8, 5]), ("c3", [2, 4, 5]),
                        ("s1", [2, 3, 10]), ("k1", [4, 3, 3]), ("s2", [2, 3, 8, 8]), ("k2", [4, 3, 3, 3]),
                        ("kt", [3, 2, 3, 3]), ("g", [4, 6]), ("e", [10, 3]), ("h", [4, 6]), ("wi", [24, 8]),
                        ("wh", [24, 6]), ("bi", [24]), ("y", [4, 8])]:
        t[name] = torch.randn(*shape)
    t["p"] = torch.rand(4, 8) + 0.5
    t["cls"] = torch.tensor([1, 0, 5, 2])
    t["idx"] = torch.tensor([[1, 2, 9], [0, 0, 4]])
    t["mask"] = t["x"] > 0
    return t


def table(t):
    """name -> the operation; each gives one tensor (the first of several outputs)."""
    x, w, b, q, y, p = t["x"], t["w"], t["b"], t["q"], t["y"], t["p"]
    mm = lambda: x.mm(x.t())  # noqa: E731  (a low-precision result under autocast, for the mixed cases)
    return {
        "mm": lambda: torch.mm(x, q),
        "matmul": lambda: torch.matmul(t["b1"], q),
        "bmm": lambda: torch.bmm(t["b1"], t["b2"]),
        "addmm": lambda: torch.addmm(t["c"], x, q),
        "baddbmm": lambda: torch.baddbmm(t["c3"], t["b1"], t["b2"]),
        "addbmm": lambda: torch.addbmm(t["c"], t["b1"], t["b2"]),
        "linear": lambda: F.linear(x, w, b),
        "conv1d": lambda: F.conv1d(t["s1"], t["k1"]),
        "conv2d": lambda: F.conv2d(t["s2"], t["k2"], padding=1),
        "conv_transpose2d": lambda: F.conv_transpose2d(t["s2"], t["kt"]),
        "prelu": lambda: F.prelu(x, torch.tensor([0.25])),
        "softmax": lambda: F.softmax(x, dim=1),
        "log_softmax": lambda: F.log_softmax(x, dim=1),
        "softmax_low": lambda: F.softmax(mm(), dim=1),
        "layer_norm": lambda: F.layer_norm(x, [8]),
        "layer_norm_low": lambda: F.layer_norm(mm(), [4]),
        "batch_norm": lambda: F.batch_norm(x, None, None, training=True),
        "group_norm": lambda: F.group_norm(t["s2"], 3),
        "mse_loss": lambda: F.mse_loss(x, y),
        "mse_loss_low": lambda: F.mse_loss(mm(), x.mm(y.t())),
        "l1_loss": lambda: F.l1_loss(x, y),
        "smooth_l1_loss": lambda: F.smooth_l1_loss(x, y),
        "cross_entropy": lambda: F.cross_entropy(F.linear(x, w, b), t["cls"]),
        "nll_loss": lambda: F.nll_loss(F.log_softmax(F.linear(x, w, b), dim=1), t["cls"]),
        "bce_with_logits": lambda: F.binary_cross_entropy_with_logits(x, torch.sigmoid(y)),
        "kl_div": lambda: F.kl_div(F.log_softmax(x, dim=1), F.softmax(y, dim=1), reduction="batchmean"),
        "cosine_similarity": lambda: F.cosine_similarity(x, y),
        "sum": lambda: torch.sum(x),
        "sum_low": lambda: torch.sum(mm()),
        "mean_low": lambda: torch.mean(mm()),
        "prod": lambda: torch.prod(p, 1),
        "cumsum": lambda: torch.cumsum(x, 1),
        "exp": lambda: torch.exp(x),
        "exp_low": lambda: torch.exp(mm()),
        "log": lambda: torch.log(p),
        "log1p": lambda: torch.log1p(p),
        "pow": lambda: torch.pow(p, 2.5),
        "sqrt": lambda: torch.sqrt(p),
        "tanh_low": lambda: torch.tanh(mm()),
        "sigmoid": lambda: torch.sigmoid(x),
        "cat": lambda: torch.cat([mm(), x.t().mm(x)[:4, :4]], 0),
        "cat_mixed": lambda: torch.cat([mm(), y[:, :4]], 0),
        "stack_mixed": lambda: torch.stack([mm(), y[:, :4]], 0),
        "add_mixed": lambda: mm() + y[:, :4],
        "mul_mixed": lambda: mm() * y[:, :4],
        "addcmul_mixed": lambda: torch.addcmul(y[:, :4], mm(), y[:, 4:]),
        "where_mixed": lambda: torch.where(t["mask"][:, :4], mm(), y[:, :4]),
        "index_select_low": lambda: torch.index_select(mm(), 0, t["cls"][:2].clamp(max=3)),
        "relu_low": lambda: F.relu(mm()),
        "gelu_low": lambda: F.gelu(mm()),
        "silu": lambda: F.silu(x),
        "max_pool2d": lambda: F.max_pool2d(t["s2"], [2]),
        "avg_pool2d": lambda: F.avg_pool2d(F.conv2d(t["s2"], t["k2"]), [2]),
        "adaptive_avg_pool2d": lambda: F.adaptive_avg_pool2d(t["s2"], 2),
        "embedding": lambda: F.embedding(t["idx"], t["e"]),
        "cdist": lambda: torch.cdist(x, y),
        "dist": lambda: torch.dist(x, y),
        "lstm_cell": lambda: torch.lstm_cell(x, [t["h"], t["h"]], t["wi"], t["wh"], t["bi"], t["bi"])[0],
        "gru_cell": lambda: torch.gru_cell(x, t["h"], t["wi"][:18], t["wh"][:18], t["bi"][:18], t["bi"][:18]),
        "interpolate": lambda: F.interpolate(F.conv2d(t["s2"], t["k2"]), scale_factor=2.0, mode="bilinear"),
    }


def run(dtype):
    """{name: (dtype text, flat values)} with autocast on for `dtype` (None: off)."""
    out = {}
    t = inputs()
    for name, op in table(t).items():
        if dtype is None:
            r = op()
        else:
            with torch.autocast(device_type="cpu", dtype=dtype):
                r = op()
        out[name] = (str(r.dtype).replace("torch.", ""), flat(r))
    return out


def main():
    v = {}
    for key, dtype in [("bf16", torch.bfloat16), ("fp16", torch.float16), ("off", None)]:
        r = run(dtype)
        v[key + "_names"] = list(r.keys())
        v[key + "_dtypes"] = {k: d for k, (d, _) in r.items()}
        v[key + "_values"] = {k: vals for k, (_, vals) in r.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.autocast(device_type="cpu", dtype=torch.float32)
    v["warn_float32"] = str(caught[0].message)
    v["err_meta"] = error_text(lambda: torch.autocast(device_type="meta", dtype=torch.float16))
    v["err_meta_dtype"] = error_text(lambda: torch.autocast(device_type="meta"))
    v["err_unknown"] = error_text(lambda: torch.autocast(device_type="foo"))
    v["default_dtypes"] = [str(torch.get_autocast_dtype(d)).replace("torch.", "") for d in ["cpu", "cuda"]]
    v["available"] = [torch.amp.is_autocast_available(d) for d in ["cpu", "cuda", "xpu", "meta"]]
    write(os.path.join(HERE, "autocast_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
