#!/usr/bin/env python3
"""Writes tests/vision/models_fixtures.spl and, beside it, one state-dict file per architecture
(<arch>.pt, not committed: see .gitignore): torchvision's own models (the pinned torchvision,
installed without dependencies over the pinned torch) against lib.torch.vision.models.

For each architecture, after torch.manual_seed(seed):
  <arch>_keys    state_dict() keys, in order
  <arch>_init    per parameter, [sum (float64), first three values, last value] of the
                 initialisation (same ATen draws => equal exactly)
  <arch>_repr    repr(model)
Then random weights (every norm's weight, bias, running statistics and batch count, every
bias and every all-zero tensor drawn anew; convs and linears keep their seeded init), saved with torch.save to
<arch>.pt; and
  <arch>_out     eval() output on torch.randn(1, 3, 64, 64) (224 x 224 for vit_b_16) drawn
                 after manual_seed(seed + 1)
resnet18 and efficientnet_b0 also in train() on torch.randn(2, 3, 64, 64) after manual_seed(seed
+ 2) (<arch>_train_out, a running mean's checksum after it: <arch>_train_running_mean), and
torchvision.ops.stochastic_depth's draws (sd_*); and VARIANTS (var_*): other constructors and
non-default arguments, built after manual_seed(20 + i), their eval() output on
torch.randn(2, 3, 64, 64) drawn after adding randn * 0.01 to every parameter.
Big matrices (more than 1M elements: vgg's linears, resnet50's fc, vit's projections) are saved as a strided view of
a small storage (w[i, j] = s[3 i + j]) so that the file stays small; the model is loaded
from the file before its output is taken, as the spec does.

    .venv/bin/python tests/vision/make_models_fixtures.py
"""
import os
import sys

import torch
import torchvision.models as tvm
import torchvision.ops as tvops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import flat, write  # noqa: E402

# name, constructor, seed, input side (vit_b_16 takes 224 only)
ARCHS = [("resnet18", tvm.resnet18, 1, 64), ("resnet50", tvm.resnet50, 2, 64),
         ("vgg11_bn", tvm.vgg11_bn, 3, 64), ("mobilenet_v2", tvm.mobilenet_v2, 4, 64),
         ("mobilenet_v3_small", tvm.mobilenet_v3_small, 5, 64), ("efficientnet_b0", tvm.efficientnet_b0, 6, 64),
         ("vit_b_16", tvm.vit_b_16, 7, 224)]


# Other constructors and non-default arguments: keys, init and the eval() output of the
# seeded model itself (no file), under var_<name>_*.
VARIANTS = [
    ("resnet18_args", lambda: tvm.resnet18(num_classes=10, zero_init_residual=True)),
    ("resnet50_dilated", lambda: tvm.resnet50(num_classes=5, replace_stride_with_dilation=[False, True, True])),
    ("wide_resnext", lambda: tvm.resnet.ResNet(tvm.resnet.Bottleneck, [1, 1, 1, 1], num_classes=4, groups=4, width_per_group=32)),
    ("mobilenet_v2_half", lambda: tvm.mobilenet_v2(num_classes=7, width_mult=0.5)),
    ("mobilenet_v3_large_tail", lambda: tvm.mobilenet_v3_large(num_classes=8, reduced_tail=True, dilated=True)),
    ("efficientnet_b1", lambda: tvm.efficientnet_b1(num_classes=9)),
    ("vit_b_32_small", lambda: tvm.vit_b_32(image_size=64, num_classes=3, representation_size=16)),
]

# Architectures also run in train mode, with the running statistic recorded after it.
TRAIN = {"resnet18": "layer4.1.bn2.running_mean", "efficientnet_b0": "features.6.3.block.3.1.running_mean"}


def checksum(p):
    f = p.detach().reshape(-1)
    return [f.double().sum().item()] + [float(x) for x in f[:3].tolist()] + [float(f[-1])]


def short(out):
    """An output, flattened, to 9 significant digits (a float32's, 5e-10 relative: the
    comparison is within 1e-5), to keep the fixture file small."""
    return [float("%.9g" % y) for y in out.detach().reshape(-1).tolist()]


def randomised(m, seed):
    """The model's state with random norms and biases; big matrices as small strided views."""
    g = torch.Generator().manual_seed(seed)
    sd = {}
    for k, t in m.state_dict().items():
        leaf = k.rsplit(".", 1)[-1]
        if leaf == "num_batches_tracked":
            t = torch.tensor(int(torch.randint(0, 1000, (), generator=g)))
        elif leaf in ("running_var",):
            t = torch.rand(t.shape, generator=g) + 0.5
        elif t.dim() == 1:   # norms' weight / bias / running_mean, linears' and convs' biases
            t = torch.randn(t.shape, generator=g) * 0.1 + (1.0 if leaf == "weight" else 0.0)
        elif t.numel() > 1_000_000 and t.dim() == 2:
            rows, cols = t.shape
            base = torch.randn(3 * (rows - 1) + cols, generator=g) * 0.01
            t = base.as_strided((rows, cols), (3, 1))
        elif t.is_floating_point() and not t.any():   # vit's class token and zeroed head
            t = torch.randn(t.shape, generator=g) * 0.02
        sd[k] = t
    return sd


def main():
    v = {}
    for name, make, seed, side in ARCHS:
        torch.manual_seed(seed)
        m = make()
        sd = m.state_dict()
        v[name + "_keys"] = list(sd.keys())
        v[name + "_init"] = [checksum(p) for _, p in m.named_parameters()]
        v[name + "_repr"] = repr(m)
        path = os.path.join(HERE, name + ".pt")
        torch.save(randomised(m, seed), path)
        m.load_state_dict(torch.load(path), strict=True)
        m.eval()
        torch.manual_seed(seed + 1)
        x = torch.randn(1, 3, side, side)
        with torch.no_grad():
            v[name + "_out"] = short(m(x))
        if name in TRAIN:
            # train(): batch statistics, running statistics moved, dropout and stochastic depth drawn.
            m.train()
            torch.manual_seed(seed + 2)
            x = torch.randn(2, 3, 64, 64)
            v[name + "_train_out"] = short(m(x))
            v[name + "_train_running_mean"] = checksum(m.state_dict()[TRAIN[name]])
    for i, (name, make) in enumerate(VARIANTS):
        torch.manual_seed(20 + i)
        m = make().eval()
        v["var_" + name + "_keys"] = list(m.state_dict().keys())
        v["var_" + name + "_init"] = [checksum(p) for _, p in m.named_parameters()]
        with torch.no_grad():
            # Noise on every parameter (drawn in named_parameters() order), so that no output
            # is trivially small (a zeroed head, 0.01-scaled classifiers).
            for p in m.parameters():
                p.add_(torch.randn(p.shape) * 0.01)
            v["var_" + name + "_out"] = short(m(torch.randn(2, 3, 64, 64)))
    torch.manual_seed(8)
    x = torch.randn(6, 3, 2)
    v["sd_row"] = flat(tvops.stochastic_depth(x, 0.5, "row", True))
    v["sd_batch"] = [flat(tvops.stochastic_depth(x, 0.5, "batch", True)) for _ in range(4)]
    v["sd_eval"] = flat(tvops.stochastic_depth(x, 0.5, "row", False))
    v["sd_repr"] = repr(tvops.StochasticDepth(0.0125, "row"))
    write(os.path.join(HERE, "models_fixtures.spl"), __file__, v, also=" and torchvision " + __import__("torchvision").__version__)


if __name__ == "__main__":
    main()
