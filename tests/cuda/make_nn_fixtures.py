"""nn on the device (nn_fixtures.spl): an MLP and a small CNN (Conv2d, BatchNorm2d, ReLU,
MaxPool2d, Linear) trained 10 SGD steps (momentum, foreach) on cross-entropy: each loss, the
final parameters and running statistics; an LSTM and a GRU (cuDNN's on CUDA) forward and
backward: outputs, final states, parameter and input gradients. Modules are built on the CPU
after manual_seed and moved; inputs are drawn on the CPU after them and moved."""
import os
import sys

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, upstream  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402


def train(values, name, seed, make, input_shape, classes, lr):
    torch.manual_seed(seed)
    m = make().to(DEVICE)
    x = torch.randn(*input_shape).to(DEVICE)
    target = (torch.arange(input_shape[0]) % classes).to(DEVICE)
    opt = torch.optim.SGD(m.parameters(), lr=lr, momentum=0.9)
    losses = []
    for _ in range(10):
        opt.zero_grad()
        loss = F.cross_entropy(m(x), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    values[name + "_losses"] = losses
    values[name + "_params"] = [flat(p) for p in m.parameters()]
    values[name + "_buffers"] = [flat(b) for b in m.buffers()]


def rnn(values, name, seed, make, input_shape):
    torch.manual_seed(seed)
    m = make().to(DEVICE)
    x = torch.randn(*input_shape).to(DEVICE).requires_grad_()
    out, state = m(x)
    h = state[0] if isinstance(state, tuple) else state
    ((out * upstream(out)).sum() + (h * upstream(h)).sum()).backward()
    values[name + "_out"] = flat(out)
    values[name + "_states"] = [flat(s) for s in (state if isinstance(state, tuple) else (state,))]
    values[name + "_grads"] = [flat(p.grad) for p in m.parameters()]
    values[name + "_input_grad"] = flat(x.grad)


def make():
    v = {}
    train(v, "mlp", 0, lambda: nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4)), (8, 6), 4, 0.1)
    train(v, "cnn", 1, lambda: nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                                             nn.Flatten(), nn.Linear(64, 3)), (6, 1, 8, 8), 3, 0.05)
    rnn(v, "lstm", 2, lambda: nn.LSTM(5, 7, num_layers=2), (4, 3, 5))
    rnn(v, "gru", 3, lambda: nn.GRU(5, 6, batch_first=True, bidirectional=True), (3, 4, 5))
    return v


if __name__ == "__main__":
    main(__file__, "nn", make)
