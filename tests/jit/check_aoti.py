#!/usr/bin/env python3
"""An AOTInductor package compiled here by Python (torch.export.export, then
torch._inductor.aoti_compile_and_package; a small CNN on CPU taking a tensor, a list of tensors
and a keyword argument, returning a tuple holding a dict) run from Simple by
lib.torch._inductor.load_package (tests/jit/aoti_run.spl): its outputs equal Python's
aoti_load_package outputs exactly (the same compiled code on the same LibTorch) and the eager
model's within 1e-5; run()'s flat outputs, get_metadata, get_call_spec and get_constant_fqns
equal Python's; load_constants with new weights gives what Python's load_constants gives. Bad
input (a missing file, a file that is not a package, an input of the wrong size or dtype, the
wrong number of inputs, an unknown keyword) gives an error naming the problem, exit 1, no crash.

usage: check_aoti.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "data"))
from python_side import ensure_modules  # noqa: E402

ensure_modules("torch")

import torch  # noqa: E402
from torch import nn  # noqa: E402


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 8 * 8, 5)

    def forward(self, x, extras, *, bias):
        h = torch.relu(self.bn(self.conv(x)))
        logits = self.fc(h.flatten(1)) + bias
        return logits, {"feat": h.mean((2, 3)) * extras[0].sum(), "sum": extras[1] + logits.sum()}


def same(got, want):
    """Equal bit for bit, shapes and dtypes included; NaN only where the reference is NaN."""
    return got.dtype == want.dtype and got.shape == want.shape and torch.equal(got.isnan(), want.isnan()) and \
        torch.equal(torch.nan_to_num(got), torch.nan_to_num(want))


def close(got, want, tol=1e-5):
    if got.shape != want.shape or not torch.equal(got.isnan(), want.isnan()):
        return False
    ok = ~want.isnan()
    return bool(((got[ok] - want[ok]).abs() <= tol).all())


BAD = [
    ("a missing file", 'load_package(d + "/missing.pt2")',
     "Failed to initialize zip archive: file open failed (loading {d}/missing.pt2 as an AOTInductor package)"),
    ("a file that is not a package", 'load_package(d + "/inputs.pt")', "as an AOTInductor package)"),
    ("an input of the wrong size", 'load_package(d + "/m.pt2")(Tensor.zeros([3, 3, 8, 8]), [a, b], bias: c)',
     "AOTInductor package run failed: input_handles[0]: unmatched dim value at 0, expected: 2, but got: 3"),
    ("an input of the wrong dtype", 'load_package(d + "/m.pt2")(Tensor.zeros([2, 3, 8, 8], dtype: "float64"), [a, b], bias: c)',
     "AOTInductor package run failed: input_handles[0]: unmatched dtype, expected: 6(at::kFloat), but got: 7"),
    ("the wrong number of inputs", 'load_package(d + "/m.pt2").run([a])',
     "AOTInductor package run failed: expected inputs vector size to be 4, but got 1"),
    ("an unknown keyword", 'load_package(d + "/m.pt2")(Tensor.zeros([2, 3, 8, 8]), [a, b], scale: c)',
     "AOTICompiledModel got an unexpected keyword argument 'scale' (the package takes [\"bias\"])"),
    ("a handle of another kind", 'AOTICompiledModel(h: a.h).run([a])', "is a tensor, not an AOTInductor package"),
]


def main():
    splrun = os.path.abspath(sys.argv[1])
    failures = []
    torch.manual_seed(0)
    model = Net().eval()
    with torch.no_grad():  # running statistics that are not the identity, so BatchNorm's folding shows
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 1.5)
    x, a, b, bias = torch.randn(2, 3, 8, 8), torch.randn(3), torch.randn(4), torch.randn(5)
    with tempfile.TemporaryDirectory() as tmp:
        package = torch._inductor.aoti_compile_and_package(
            torch.export.export(model, (x, [a, b]), {"bias": bias}), package_path=os.path.join(tmp, "m.pt2"))
        compiled = torch._inductor.aoti_load_package(package)
        fqns = compiled.get_constant_fqns()
        new_weights = {name: torch.randn_like(dict(model.named_parameters())[name]) for name in fqns}
        torch.save({"x": x, "a": a, "b": b, "bias": bias, **new_weights}, os.path.join(tmp, "inputs.pt"))
        want = compiled(x, [a, b], bias=bias)
        eager = model(x, [a, b], bias=bias)
        want_flat = compiled.loader.run([x, a, b, bias])
        again = torch._inductor.aoti_load_package(package)
        again.load_constants(new_weights, check_full_update=True)
        want2 = again(x, [a, b], bias=bias)

        done = subprocess.run([splrun, os.path.join(HERE, "aoti_run.spl"), package, os.path.join(tmp, "inputs.pt"), tmp],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or "written" not in done.stdout:
            print(f"FAIL: splrun: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
        simple = torch.load(os.path.join(tmp, "simple.pt"), weights_only=True)
        if not same(simple["logits"], want[0]):
            failures.append(f"logits differ from Python's AOTICompiledModel:\n{simple['logits']}\n{want[0]}")
        if not close(simple["logits"], eager[0].detach()):
            failures.append("logits are not within 1e-5 of the eager model's")
        if list(simple["parts"].keys()) != ["feat", "sum"]:
            failures.append(f"the output dict's keys {list(simple['parts'].keys())}, not ['feat', 'sum']")
        for key in ("feat", "sum"):
            if not same(simple["parts"][key], want[1][key]):
                failures.append(f"output {key!r} differs from Python's AOTICompiledModel")
            if not close(simple["parts"][key], eager[1][key].detach()):
                failures.append(f"output {key!r} is not within 1e-5 of the eager model's")
        if len(simple["flat"]) != len(want_flat) or not all(same(g, w) for g, w in zip(simple["flat"], want_flat)):
            failures.append("run()'s flat outputs differ from the loader's")
        for key, value in (("metadata", compiled.get_metadata()), ("call_spec", compiled.loader.get_call_spec()),
                           ("constant_fqns", fqns)):
            if simple[key] != value:
                failures.append(f"{key}: {simple[key]!r}, Python's {value!r}")
        if not same(simple["logits2"], want2[0]) or not all(same(simple["parts2"][k], want2[1][k]) for k in ("feat", "sum")):
            failures.append("after load_constants the outputs differ from Python's after the same load_constants")
        if same(simple["logits2"], simple["logits"]):
            failures.append("load_constants changed nothing")
        if simple["kinds"] != ["tuple", "dict"]:
            failures.append(f"the output is a {simple['kinds'][0]} holding a {simple['kinds'][1]}, not a tuple holding a dict")
        if simple["repr"] != "<AOTICompiledModel>":
            failures.append(f"repr {simple['repr']!r}")

        for what, expression, message in BAD:
            program = os.path.join(tmp, "bad.spl")
            with open(program, "w") as f:
                f.write("use lib.torch.{Tensor, load}\nuse lib.torch._inductor.{load_package, AOTICompiledModel}\n"
                        "val d = args()[0]\nval inputs = load(d + \"/inputs.pt\")\n"
                        "val (a, b, c) = (inputs[\"a\"], inputs[\"b\"], inputs[\"bias\"])\n"
                        f"print {expression}\n")
            done = subprocess.run([splrun, program, tmp], capture_output=True, text=True, timeout=120)
            wanted = message.format(d=tmp)
            if done.returncode != 1 or wanted not in done.stderr:
                failures.append(f"{what}: exit {done.returncode}, stderr {done.stderr[-800:]!r}; wanted exit 1 and {wanted!r}")
    for f in failures:
        print("FAIL: " + f)
    print("ok: Simple runs the AOTInductor package with Python's outputs" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
