"""Mixed precision on the device (amp_fixtures.spl; SPL_TEST_DEVICE, CUDA by default, the CPU in
the dry run): the output dtype of a dozen operations under float16 autocast; 12 SGD steps of a small MLP under float16 autocast with a GradScaler
(growth every 3 steps, an inf injected into a gradient at step 5) — each step's loss, the
scale after each update, the final weights; 10 steps under bfloat16 autocast without a
scaler."""
import os
import sys

import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402


def batch(i):
    x = (torch.arange(128, dtype=torch.float32) * (0.1 * (i + 1))).cos().reshape(8, 16)
    y = (torch.arange(32, dtype=torch.float32) * (0.2 * (i + 1))).sin().reshape(8, 4)
    return x.to(DEVICE), y.to(DEVICE)


def dtypes():
    a = torch.arange(64, dtype=torch.float32, device=DEVICE).reshape(8, 8) * 0.01
    img = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32, device=DEVICE).reshape(2, 3, 8, 8) * 0.001
    w = torch.arange(4 * 3 * 3 * 3, dtype=torch.float32, device=DEVICE).reshape(4, 3, 3, 3) * 0.01
    h = a.half()
    with torch.autocast(DEVICE, dtype=torch.float16):
        out = {"mm": a.mm(a), "matmul": a @ a, "linear": F.linear(a, a), "conv2d": F.conv2d(img, w),
               "bmm": a.unsqueeze(0).bmm(a.unsqueeze(0)), "addmm": torch.addmm(a, a, a),
               "softmax": F.softmax(a, -1), "log_softmax": F.log_softmax(a, -1),
               "layer_norm": F.layer_norm(a, [8]), "mse_loss": F.mse_loss(a, a * 2), "sum": a.sum(),
               "exp": a.exp(), "relu": F.relu(a), "cat": torch.cat([a, h]), "add": a + h}
    return {k: str(v.dtype).replace("torch.", "") for k, v in out.items()}


def model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(DEVICE)


def fp16_scaled():
    m = model()
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler(DEVICE, init_scale=2.0 ** 16, growth_interval=3)
    losses, scales = [], []
    for i in range(12):
        x, y = batch(i)
        opt.zero_grad()
        with torch.autocast(DEVICE, dtype=torch.float16):
            loss = F.mse_loss(m(x), y)
        scaler.scale(loss).backward()
        if i == 5:
            m[0].weight.grad[0, 0] = float("inf")
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
        scales.append(scaler.get_scale())
    return losses, scales, [flat(p) for p in m.parameters()]


def bf16():
    m = model()
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    losses = []
    for i in range(10):
        x, y = batch(i)
        opt.zero_grad()
        with torch.autocast(DEVICE, dtype=torch.bfloat16):
            out = m(x)
            loss = F.mse_loss(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return str(out.dtype).replace("torch.", ""), losses, [flat(p) for p in m.parameters()]


def make():
    losses, scales, weights = fp16_scaled()
    bf16_dtype, bf16_losses, bf16_weights = bf16()
    return {"dtypes": dtypes(), "fp16_losses": losses, "fp16_scales": scales,
            "fp16_weights": weights, "bf16_dtype": bf16_dtype, "bf16_losses": bf16_losses,
            "bf16_weights": bf16_weights}


if __name__ == "__main__":
    main("tests/cuda/make_amp_fixtures.py", "amp", make)
