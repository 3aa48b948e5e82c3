"""Tensors on the device and back (tensors_fixtures.spl): printed forms (device='cuda:0' on
CUDA; float16, bfloat16, int64, a 0-d tensor, requires_grad and grad_fn), the device
attribute, round trips through .to(device) / .cpu(), and .to(device, non_blocking=True)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402


def base():
    return (torch.arange(6, dtype=torch.float32) * 0.37 - 1).reshape(2, 3)


def make():
    v = {}
    x = base().to(DEVICE)
    v["device_name"] = str(x.device)
    v["is_cuda"] = x.is_cuda
    v["repr_float32"] = repr(x)
    v["repr_float16"] = repr(x.to(torch.float16))
    v["repr_bfloat16"] = repr(x.to(torch.bfloat16))
    v["repr_float64"] = repr(x.double())
    v["repr_int64"] = repr(torch.arange(5).to(DEVICE))
    v["repr_bool"] = repr(x > 0)
    v["repr_scalar"] = repr(x.sum())
    leaf = base().to(DEVICE).requires_grad_()
    v["repr_requires_grad"] = repr(leaf)
    v["repr_grad_fn"] = repr(leaf * leaf)
    v["float16_values"] = flat(x.half().cpu())
    v["bfloat16_values"] = flat(x.to(DEVICE, torch.bfloat16).cpu())
    v["sum"] = flat(x.sum())
    v["matmul"] = flat(x @ x.t())
    return v


if __name__ == "__main__":
    main(__file__, "tensors", make)
