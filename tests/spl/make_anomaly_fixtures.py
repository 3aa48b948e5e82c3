#!/usr/bin/env python3
"""Writes tests/spl/anomaly_fixtures.spl: torch.autograd's anomaly detection on the pin: the modes
outside, inside and after detect_anomaly and set_detect_anomaly (with check_nan off too), the
error for a backward function that returns NaN and the node PyTorch's warning names, and NaN gradients let through without
check_nan or outside the region.
Run: .venv/bin/python tests/spl/make_anomaly_fixtures.py"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)


def modes():
    return [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]


def nan_grad():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    (x / x).sum().backward()
    return [str(g) for g in x.grad.tolist()]


def main():
    warnings.simplefilter("ignore")
    v = {"outside": modes()}
    with torch.autograd.detect_anomaly():
        v["inside"] = modes()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            v["nan_error"] = error_text(nan_grad)
        # PyTorch's warning names the failing node, then prints the forward call's traceback.
        noted = [str(w.message) for w in caught if str(w.message).startswith("Error detected in ")]
        v["nan_node_note"] = noted[0].split(". ")[0] + "."
    v["after"] = modes()
    with torch.autograd.detect_anomaly(check_nan=False):
        v["inside_no_check"] = modes()
        v["nan_let_through"] = nan_grad()
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    v["set_no_check"] = modes()
    torch.autograd.set_detect_anomaly(False)
    v["set_off"] = modes()
    v["nan_outside"] = nan_grad()
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "anomaly_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
