#!/usr/bin/env python3
"""A TorchScript file (what lib.torch.jit.trace(...).save(path) writes in Simple, or Python's
torch.jit.save) exported to ONNX with the pinned torch's exporter; run by the project's venv:

    .venv/bin/python scripts/to_onnx.py MODEL.pt OUT.onnx --input-shape 1,3,32,32 [--input-shape ...]
        [--dtype float32] [--opset 17] [--dynamic-batch] [--check]

In Simple:
    use lib.torch.jit
    net.eval()
    jit.trace(net, [x]).save("net.pt")      # then: to_onnx.py net.pt net.onnx --input-shape 1,3,32,32

One --input-shape per forward argument, in order (each a tensor of --dtype; the example inputs
are torch.randn after manual_seed(0), or zeros for integer dtypes). The ONNX graph's inputs are
named input0, input1, ... and its outputs output0, ... (a forward returning a tuple or list of
tensors gives one output each). --dynamic-batch makes dimension 0 of every input and output a
named dynamic axis ("batch"), so onnxruntime runs other batch sizes. --check runs the file with
onnxruntime on the example inputs and compares with torch.jit's outputs (1e-5 absolute and
relative); onnxruntime and onnx are pinned in torch-requirements.txt.

Exporter: torch.onnx.export(..., dynamo=False), the TorchScript-based exporter. In torch 2.15 the
default (dynamo=True) builds a torch.export ExportedProgram and needs onnxscript; a loaded
ScriptModule is already a TorchScript graph, which the TorchScript-based exporter converts
directly (torch 2.15 still ships it, marked deprecated with a DeprecationWarning, silenced here;
it needs the onnx package). Opset: 17 by default (ONNX 1.12, run by every onnxruntime since
1.12); --opset takes 7 to 20 (torch.onnx._constants.ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET). The
module is exported in eval mode (TrainingMode.EVAL) with constant folding, parameters as
initializers.

Bad input exits with status 1 and one line naming the file and the problem: a missing file, a
file that is not TorchScript (a state dict from torch.save, a corrupt zip), example inputs the
forward rejects, an operator the exporter cannot convert.
"""
import argparse
import os
import re
import sys
import warnings
import zipfile

MIN_OPSET, MAX_OPSET, DEFAULT_OPSET = 7, 20, 17
DTYPES = ("float32", "float64", "float16", "int64", "int32", "bool")


def shape(text):
    try:
        dims = [int(d) for d in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a shape: {text!r} (comma-separated sizes, as 1,3,32,32)")
    if not dims or any(d < 0 for d in dims):
        raise argparse.ArgumentTypeError(f"not a shape: {text!r} (sizes must be >= 0)")
    return dims


def opset(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an opset: {text!r}")
    if not MIN_OPSET <= v <= MAX_OPSET:
        raise argparse.ArgumentTypeError(f"opset {v} is outside {MIN_OPSET}..{MAX_OPSET} (the TorchScript-based exporter's range)")
    return v


def parse(argv):
    p = argparse.ArgumentParser(prog="to_onnx.py", description="Export a TorchScript file to ONNX (torch.onnx.export, dynamo=False).")
    p.add_argument("model", help="TorchScript file (jit.trace(...).save(path))")
    p.add_argument("out", help="ONNX file to write")
    p.add_argument("--input-shape", type=shape, action="append", required=True, metavar="D0,D1,...",
                   help="shape of one forward argument; repeat for each argument, in order")
    p.add_argument("--dtype", choices=DTYPES, default="float32", help="dtype of the example inputs (default float32)")
    p.add_argument("--opset", type=opset, default=DEFAULT_OPSET, help=f"ONNX opset, {MIN_OPSET}..{MAX_OPSET} (default {DEFAULT_OPSET})")
    p.add_argument("--dynamic-batch", action="store_true", help="dimension 0 of inputs and outputs is dynamic")
    p.add_argument("--check", action="store_true", help="compare onnxruntime's outputs with torch.jit's on the example inputs")
    return p.parse_args(argv)


def fail(message):
    print(f"to_onnx.py: error: {message}", file=sys.stderr)
    sys.exit(1)


def first_line(e):
    """The error's own line: a TorchScript interpreter error ends with it after the traceback."""
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    if not lines:
        return type(e).__name__
    line = lines[-1] if "TorchScript interpreter" in lines[0] else lines[0]
    line = line.split(" This is an internal miniz error.")[0]
    return line if re.match(r"\w+Error: ", line) else f"{type(e).__name__}: {line}"


def not_torchscript(path):
    """Why path is no TorchScript file: a torch.save archive (a state dict, tensors) has data.pkl but
    no constants.pkl nor code/."""
    try:
        with zipfile.ZipFile(path) as z:
            names = {n.split("/", 1)[-1] for n in z.namelist()}
    except (zipfile.BadZipFile, OSError):
        return None
    if "data.pkl" in names and "constants.pkl" not in names:
        return "a torch.save file (a state dict or tensors), not a TorchScript module: save the traced module with jit.trace(...).save(path)"
    return None


def flat_outputs(out, torch):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)) and all(isinstance(t, torch.Tensor) for t in out):
        return list(out)
    fail(f"forward returned {type(out).__name__}: ONNX outputs must be a tensor or a tuple/list of tensors")


def main(argv=None):
    args = parse(argv)
    if not os.path.isfile(args.model):
        fail(f"{args.model}: no such file")
    import torch

    # torch 2.15 marks torch.jit.load deprecated (FutureWarning) and the TorchScript-based exporter
    # (DeprecationWarning), and the exporter cannot read a loaded forward's Python signature
    # (UserWarning "no signature found"): expected here, silenced.
    warnings.filterwarnings("ignore", message="`torch.jit.load` is deprecated", category=FutureWarning)
    warnings.filterwarnings("ignore", message="You are using the legacy TorchScript-based ONNX export", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="no signature found for <torch.ScriptMethod", category=UserWarning)
    why = not_torchscript(args.model)
    if why:
        fail(f"{args.model} is {why}")
    try:
        model = torch.jit.load(args.model, map_location="cpu")
    except Exception as e:  # torch.jit.load raises RuntimeError (and ValueError) for non-TorchScript files
        fail(f"{args.model} is not a TorchScript file ({first_line(e)})")
    model.eval()
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(0)
    inputs = tuple(torch.randn(s, dtype=dtype) if dtype.is_floating_point else torch.zeros(s, dtype=dtype)
                   for s in args.input_shape)
    try:
        with torch.no_grad():
            expected = flat_outputs(model(*inputs), torch)
    except Exception as e:
        shapes = " ".join("x".join(map(str, s)) for s in args.input_shape)
        fail(f"{args.model}: forward rejects example inputs of shape {shapes} ({first_line(e)})")
    input_names = [f"input{i}" for i in range(len(inputs))]
    output_names = [f"output{i}" for i in range(len(expected))]
    dynamic_axes = {name: {0: "batch"} for name in input_names + output_names} if args.dynamic_batch else None
    try:
        torch.onnx.export(model, inputs, args.out, dynamo=False, opset_version=args.opset,
                          input_names=input_names, output_names=output_names, dynamic_axes=dynamic_axes)
    except Exception as e:
        fail(f"{args.model}: ONNX export failed ({first_line(e)})")
    print(f"wrote {args.out} (opset {args.opset}, inputs {', '.join(input_names)}, outputs {', '.join(output_names)})")
    if args.check:
        import numpy as np
        import onnxruntime

        session = onnxruntime.InferenceSession(args.out, providers=["CPUExecutionProvider"])
        got = session.run(output_names, {n: t.numpy() for n, t in zip(input_names, inputs)})
        worst = 0.0
        for name, g, w in zip(output_names, got, expected):
            if g.shape != tuple(w.shape) or not np.allclose(g, w.numpy(), rtol=1e-5, atol=1e-5):
                fail(f"{args.out}: onnxruntime's {name} differs from torch.jit's")
            worst = max(worst, float(np.abs(g - w.numpy()).max(initial=0.0)))
        print(f"check: onnxruntime {onnxruntime.__version__} matches torch.jit (max abs difference {worst:.3g})")


if __name__ == "__main__":
    main()
