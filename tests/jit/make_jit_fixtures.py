"""A module scripted with torch.jit.script (an `if`, a loop, a list of tensors, a submodule,
buffers, attributes, a second exported method with every kind of value), saved with
torch.jit.save to tests/jit/files/net.pt, and what Python gets from it: outputs, methods'
results, attributes, state_dict, and 10 Adam steps of fine-tuning (loss and parameters after
each). Also a torch.save file and a corrupt one for the bad-input cases. Deterministic: fixed
weights and inputs, no randomness."""
import os
import sys
from typing import Dict, List, Optional, Tuple

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402,F401

FILES = os.path.join(HERE, "files")


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)
        self.register_buffer("offset", torch.tensor([0.5, -0.25]))

    def forward(self, h):
        return self.fc(h) + self.offset


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.bn = torch.nn.BatchNorm1d(3)
        self.head = Head()
        self.scale = 2.0
        self.label = "net"
        self.steps = 3

    def forward(self, x, extras: List[torch.Tensor]):
        h = self.fc(x)
        if bool(h.sum() > 0):
            h = h * self.scale
        else:
            h = h - 1.0
        for e in extras:
            h = h + e
        for _ in range(self.steps):
            h = torch.tanh(h)
        return self.head(self.bn(h))

    @torch.jit.export
    def describe(self, x: torch.Tensor, k: int, flag: bool, name: str, opt: Optional[torch.Tensor],
                 d: Dict[str, float]) -> Tuple[Dict[str, torch.Tensor], List[int], float, str, List[Optional[int]], bool]:
        out: Dict[str, torch.Tensor] = {"twice": x * 2}
        if opt is not None:
            out["opt"] = opt + 1
        total = 0.0
        for key in d:
            total += d[key]
        none: List[Optional[int]] = [None, k]
        return out, [k, k + 1, len(name)], total, name + self.label, none, not flag

    @torch.jit.export
    def by_int(self, d: Dict[int, List[float]]) -> Dict[int, float]:
        r: Dict[int, float] = {}
        for key in d:
            r[key * 10] = sum(d[key])
        return r


def fixed(shape, a):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * a).sin().reshape(shape)


def build():
    net = Net()
    with torch.no_grad():
        for i, (_, p) in enumerate(net.named_parameters()):
            p.copy_(fixed(p.shape, 0.37 + 0.11 * i) * 0.6)
    return net


def main():
    os.makedirs(FILES, exist_ok=True)
    path = os.path.join(FILES, "net.pt")
    torch.jit.save(torch.jit.script(build()), path)
    torch.save({"w": torch.ones(2)}, os.path.join(FILES, "state.pt"))
    with open(path, "rb") as f:
        data = f.read()
    with open(os.path.join(FILES, "corrupt.pt"), "wb") as f:
        f.write(data[: len(data) // 2])

    v = {}
    m = torch.jit.load(path)
    v["state_values"] = [flat(t) for t in m.state_dict().values()]
    x = fixed([5, 4], 0.29)
    extras = [fixed([5, 3], 0.13), fixed([3], 0.71)]
    v["x"] = flat(x)
    v["extras"] = [flat(e) for e in extras]
    m.eval()
    out = m(x, extras)
    v["eval_out"] = flat(out)
    v["out_shape"] = list(out.shape)
    m.train()
    v["train_out"] = flat(m(x, extras))
    v["neg_out"] = flat(m(-x * 3, []))
    d, ints, total, name, none, notflag = m.describe(x[:2], 7, True, "abc", x[0], {"a": 1.5, "b": 2.25})
    v["describe_keys"] = list(d.keys())
    v["describe_twice"] = flat(d["twice"])
    v["describe_opt"] = flat(d["opt"])
    v["describe_rest"] = [ints, total, name, none, notflag]
    v["by_int"] = m.by_int({1: [0.5, 0.25], 2: [3.0]})
    v["param_names"] = [n for n, _ in m.named_parameters()]
    v["buffer_names"] = [n for n, _ in m.named_buffers()]
    v["state_keys"] = list(m.state_dict().keys())
    v["children"] = [n for n, _ in m.named_children()]
    v["methods"] = sorted(["forward", "describe", "by_int"])
    v["error_args"] = error_text(lambda: m.forward(x))
    v["error_types"] = error_text(lambda: m.forward(x, 3))

    m = torch.jit.load(path)
    m.to(torch.float64)
    m.eval()
    v["f64_dtypes"] = [str(t.dtype).replace("torch.", "") for t in m.state_dict().values()]
    v["f64_out"] = flat(m(x.double(), [e.double() for e in extras]))
    v["error_keyword"] = error_text(lambda: m(x.double(), extras=[], nope=1))

    # fine-tuning: Adam, 10 steps, train mode
    m = torch.jit.load(path)
    m.train()
    target = fixed([5, 2], 0.53)
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    losses, params = [], []
    for _ in range(10):
        opt.zero_grad()
        loss = ((m(x, extras) - target) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        params.append([flat(p) for p in m.parameters()])
    v["target"] = flat(target)
    v["tune_losses"] = losses
    v["tune_params"] = params
    v["tune_buffers"] = [flat(b) for b in m.buffers()]
    m.eval()
    v["tuned_eval_out"] = flat(m(x, extras))
    write(os.path.join(HERE, "jit_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
