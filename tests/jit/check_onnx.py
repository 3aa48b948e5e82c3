#!/usr/bin/env python3
"""A small CNN defined in Simple (tests/jit/onnx_cnn.spl), traced and saved by lib.torch.jit,
exported by scripts/to_onnx.py and run by onnxruntime: its outputs equal Simple's eager ones
within 1e-5 on 2 inputs (batch 1, the traced one, and batch 2 through --dynamic-batch); the file
has the asked opset and input/output names; --check agrees; bad files give to_onnx.py's one-line
error (exit 1, no traceback).

usage: check_onnx.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "data"))
from python_side import REPO, ensure_modules  # noqa: E402

ensure_modules("torch", "onnx", "onnxruntime")

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime  # noqa: E402
import torch  # noqa: E402

TO_ONNX = os.path.join(REPO, "scripts", "to_onnx.py")


def to_onnx(*args):
    return subprocess.run([sys.executable, TO_ONNX, *args], capture_output=True, text=True, timeout=300)


def close(got, want, tol=1e-5):
    """|got - want| <= tol everywhere, shapes equal; NaN only where the reference is NaN."""
    want = want.numpy()
    if got.shape != want.shape:
        return False
    nan = np.isnan(want)
    return bool((np.isnan(got) == nan).all() and (np.abs(got[~nan] - want[~nan]) <= tol).all())


def main():
    splrun = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([splrun, os.path.join(HERE, "onnx_cnn.spl"), tmp], capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or "written" not in done.stdout:
            print(f"FAIL: splrun: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
        simple = torch.load(os.path.join(tmp, "simple.pt"), weights_only=True)
        model, out = os.path.join(tmp, "cnn.pt"), os.path.join(tmp, "cnn.onnx")

        done = to_onnx(model, out, "--input-shape", "1,3,32,32", "--dynamic-batch", "--check")
        if done.returncode != 0 or "check: onnxruntime" not in done.stdout:
            print(f"FAIL: to_onnx.py: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
        proto = onnx.load(out)
        opsets = {o.domain: o.version for o in proto.opset_import}
        if opsets.get("", opsets.get("ai.onnx")) != 17:
            failures.append(f"opset {opsets}, not the default 17")
        names = ([i.name for i in proto.graph.input], [o.name for o in proto.graph.output])
        if names != (["input0"], ["output0"]):
            failures.append(f"input/output names {names}")
        session = onnxruntime.InferenceSession(out, providers=["CPUExecutionProvider"])
        for x, want in ((simple["x"], simple["out"]), (simple["x2"], simple["out2"])):
            try:
                (got,) = session.run(None, {"input0": x.numpy()})
            except Exception as e:  # a fixed batch axis refuses the batch-2 input
                failures.append(f"onnxruntime refuses a {list(x.shape)} input: {e}")
                continue
            if not close(got, want):
                failures.append(f"onnxruntime on a {list(x.shape)} input differs from Simple's eager output:\n{got}\n{want}")

        done = to_onnx(model, os.path.join(tmp, "cnn13.onnx"), "--input-shape", "1,3,32,32", "--opset", "13")
        if done.returncode != 0:
            failures.append(f"--opset 13: exit {done.returncode}: {done.stderr}")
        elif {o.domain: o.version for o in onnx.load(os.path.join(tmp, "cnn13.onnx")).opset_import}.get("") != 13:
            failures.append("--opset 13 did not give opset 13")

        truncated = os.path.join(tmp, "truncated.pt")
        with open(model, "rb") as f, open(truncated, "wb") as g:
            g.write(f.read()[:200])
        bad = [(os.path.join(tmp, "simple.pt"), "is a torch.save file (a state dict or tensors), not a TorchScript module"),
               (truncated, "is not a TorchScript file (RuntimeError: PytorchStreamReader failed reading zip archive"),
               (os.path.join(tmp, "missing.pt"), "missing.pt: no such file")]
        for path, message in bad:
            done = to_onnx(path, os.path.join(tmp, "bad.onnx"), "--input-shape", "1,3,32,32")
            if done.returncode != 1 or not done.stderr.startswith(f"to_onnx.py: error: {path}") or message not in done.stderr or "Traceback" in done.stderr:
                failures.append(f"{os.path.basename(path)}: exit {done.returncode}, stderr {done.stderr!r}, wanted {message!r}")
        done = to_onnx(model, os.path.join(tmp, "bad.onnx"), "--input-shape", "1,4,32,32")
        if done.returncode != 1 or "forward rejects example inputs of shape 1x4x32x32 (RuntimeError: Given groups=1" not in done.stderr:
            failures.append(f"wrong input shape: exit {done.returncode}, stderr {done.stderr!r}")
    for f in failures:
        print("FAIL: " + f)
    print("ok: onnxruntime runs the CNN Simple traced, within 1e-5 of Simple's eager outputs" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
