"""A small CNN (conv, batch norm with non-trivial running statistics, relu, pooling, linear, a
`scale` attribute) scripted with torch.jit.script and saved to tests/jit/files/cnn.pt, then what
Python's torch.jit.freeze and torch.jit.optimize_for_inference make of it: outputs (default,
optimize_numerics=False, optimize_for_inference), what the frozen graph holds, parameters left,
preserved attributes, warnings and error texts. Deterministic: fixed weights and inputs."""
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402

FILES = os.path.join(HERE, "files")


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4, 3)
        self.scale = 0.5

    def forward(self, x):
        h = torch.relu(self.bn(self.conv(x)))
        h = torch.nn.functional.adaptive_avg_pool2d(h, 1).flatten(1)
        return self.fc(h) * self.scale


def fixed(shape, a):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * a).sin().reshape(shape)


def build():
    net = Cnn()
    with torch.no_grad():
        for i, (_, t) in enumerate(list(net.named_parameters()) + list(net.named_buffers())):
            if t.is_floating_point():
                t.copy_(fixed(t.shape, 0.41 + 0.07 * i) * 0.5)
        net.bn.running_var.copy_(torch.tensor([0.5, 1.5, 2.0, 0.75]))
    return net


def caught(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(x.message) for x in w]


def main():
    os.makedirs(FILES, exist_ok=True)
    path = os.path.join(FILES, "cnn.pt")
    torch.jit.save(torch.jit.script(build()), path)
    v = {}
    x = fixed([2, 2, 5, 5], 0.23)
    v["x"] = flat(x)
    m = torch.jit.load(path)
    v["error_training"] = error_text(lambda: torch.jit.freeze(m))
    v["error_not_script"] = error_text(lambda: torch.jit.freeze(torch.nn.Linear(2, 2).eval()))
    v["error_not_script_ofi"] = error_text(lambda: torch.jit.optimize_for_inference(torch.nn.Linear(2, 2)))
    m.eval()
    v["eager_out"] = flat(m(x))
    frozen, w = caught(lambda: torch.jit.freeze(m))
    v["freeze_warnings"] = w
    v["frozen_out"] = flat(frozen(x))
    graph = str(frozen.graph)
    v["frozen_has_getattr"] = "prim::GetAttr" in graph
    v["frozen_has_batch_norm"] = "batch_norm" in graph
    v["frozen_params"] = [n for n, _ in frozen.named_parameters()]
    # freezing folds `scale` into the graph: reading it is an error, whose text the spec compares
    v["error_frozen_attr"] = error_text(lambda: frozen.scale)
    kept = torch.jit.freeze(m, preserved_attrs=["scale"])
    v["kept_scale"] = kept.scale
    v["kept_out"] = flat(kept(x))
    plain = torch.jit.freeze(m, optimize_numerics=False)
    v["plain_out"] = flat(plain(x))
    v["plain_has_batch_norm"] = "batch_norm" in str(plain.graph)
    m2 = torch.jit.load(path)
    m2.train()
    fast, w = caught(lambda: torch.jit.optimize_for_inference(m2))
    v["ofi_warnings"] = w
    v["ofi_training_after"] = m2.training
    v["ofi_out"] = flat(fast(x))
    v["ofi_has_getattr"] = "prim::GetAttr" in str(fast.graph)
    write(os.path.join(HERE, "freeze_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
