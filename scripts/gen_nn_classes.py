#!/usr/bin/env python3
"""Writes lib.torch's nn classes that differ only in their names and sizes, from the tables below:

    spl_stubs/lib/torch/nn/conv_classes.spl     Conv1d/2d/3d, ConvTranspose1d/2d/3d
    spl_stubs/lib/torch/nn/lazy_conv_norm.spl   LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d,
                                                LazyBatchNorm1d/2d/3d, LazyInstanceNorm1d/2d/3d

    scripts/gen_nn_classes.py            rewrite the files
    scripts/gen_nn_classes.py --check    exit 1 when a committed file is not this output

Why generated: each class of a family declares the same fields (PyTorch's attributes, which
state_dict, repr and the Module methods read), and a Lazy module declares the fields of the
class it becomes (nn/lazy.spl says why). The real Simple shares fields with a `mixin` (`use
Mixin` in a class body), which the reference host does not parse; a trait shares methods only.
So each family is written once here, as torchgen writes ops.spl from native_functions.yaml, and
what the classes share stays hand-written: the conv traits and checks in nn/conv.spl, what
every Lazy module shares in nn/lazy.spl.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONV_OUTPUT = "spl_stubs/lib/torch/nn/conv_classes.spl"
LAZY_OUTPUT = "spl_stubs/lib/torch/nn/lazy_conv_norm.spl"
MAX_LINE = 120

# name, transposed, spatial dimensions; then each one's docstring, by line.
CONVS = [("Conv1d", False, 1), ("Conv2d", False, 2), ("Conv3d", False, 3),
         ("ConvTranspose1d", True, 1), ("ConvTranspose2d", True, 2), ("ConvTranspose3d", True, 3)]
OUTPUT_SIZE = "`m(x, output_size)` picks among the sizes a stride > 1 leaves possible."
CONV_DOCS = {
    "Conv1d": ["A 1-D convolution over (N, C_in, L) or (C_in, L)."],
    "Conv2d": ["A 2-D convolution over (N, C_in, H, W) or (C_in, H, W)."],
    "Conv3d": ["A 3-D convolution over (N, C_in, D, H, W) or (C_in, D, H, W)."],
    "ConvTranspose1d": ["conv1d's gradient with respect to its input (\"deconvolution\") over (N, C_in, L) or",
                        "(C_in, L). " + OUTPUT_SIZE],
    "ConvTranspose2d": ["conv2d's gradient with respect to its input (\"deconvolution\") over (N, C_in, H, W) or",
                        "(C_in, H, W). " + OUTPUT_SIZE],
    "ConvTranspose3d": ["conv3d's gradient with respect to its input over (N, C_in, D, H, W) or (C_in, D, H, W)."],
}
NORMS = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]

# PyTorch's _ConvNd attributes, in its order: the name, the type (None: padding and transposed,
# which depend on the family), the value an empty (Lazy) instance starts from, and the value
# `new` gives it from its arguments and conv_setup's result `c`.
CONV_FIELDS = [
    ("weight", "Tensor", "nil", "c.weight"), ("bias", "Tensor?", "nil", "c.bias"),
    ("in_channels", "i64", "0", "in_channels"), ("out_channels", "i64", "0", "out_channels"),
    ("kernel_size", "[i64]", "[]", "c.kernel_size"), ("stride", "[i64]", "[]", "c.stride"),
    ("padding", None, None, "c.padding"), ("dilation", "[i64]", "[]", "c.dilation"),
    ("transposed", None, None, None), ("output_padding", "[i64]", "[]", "c.output_padding"),
    ("groups", "i64", "1", "groups"), ("padding_mode", "text", '"zeros"', "padding_mode"),
    ("_reversed_padding_repeated_twice", "[i64]", "[]", "c.reversed_padding"),
]
# The Conv classes' own field after PyTorch's attributes.
CONV_TRAINING = "    training: bool = true    # nn.Module.training: train()/eval() set it (spectral_norm reads it)"
NORM_FIELDS = [
    ("weight", "Tensor? = nil"), ("bias", "Tensor? = nil"), ("running_mean", "Tensor? = nil"),
    ("running_var", "Tensor? = nil"), ("num_batches_tracked", "Tensor? = nil"), ("num_features", "i64 = 0"),
    ("eps", "f64 = 1e-5"), ("momentum", "f64? = 0.1"), ("affine", "bool = false"),
    ("track_running_stats", "bool = false"),
]
# Every Lazy class's own: the mode, the instance it becomes and the initialising hook.
LAZY_FIELDS = [("training", "bool = true"), ("_module", "any = nil"), ("_initialize_hook", "any = nil")]

# PyTorch's argument lists, in its order (the Lazy classes' without in_channels).
CONV_ARGS = ["out_channels: i64", "kernel_size: [i64]", "stride: [i64] = [1]", "padding: any = 0",
             "dilation: [i64] = [1]", "groups: i64 = 1", "bias: bool = true", 'padding_mode: text = "zeros"',
             'device: text = "cpu"', 'dtype: text = "float32"']
CONV_TRANSPOSE_ARGS = ["out_channels: i64", "kernel_size: [i64]", "stride: [i64] = [1]", "padding: [i64] = [0]",
                       "output_padding: [i64] = [0]", "groups: i64 = 1", "bias: bool = true",
                       "dilation: [i64] = [1]", 'padding_mode: text = "zeros"', 'device: text = "cpu"',
                       'dtype: text = "float32"']
NORM_ARGS = ["eps: f64 = 1e-5", "momentum: f64? = 0.1", "affine: bool = true", "track_running_stats: bool = true",
             'device: text = "cpu"', 'dtype: text = "float32"', "bias: bool = true"]

CONV_HEADER = '''# @generated by scripts/gen_nn_classes.py from its table; edit the script, not this file.
"""torch.nn's convolution layers: Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,
ConvTranspose3d, with PyTorch's arguments, defaults, parameters and repr:

    Conv2d(1, 32, 3, padding: 1)
    Conv2d(16, 32, [3, 5], stride: 2, groups: 4, bias: false, padding_mode: "reflect")
    Conv1d(8, 8, 5, padding: "same", dilation: 2)
    ConvTranspose2d(16, 8, 3, stride: 2, output_padding: 1)     # m(x) or m(x, output_size)

The weight is (out_channels, in_channels / groups, *kernel_size) — (in_channels,
out_channels / groups, *kernel_size) for the transposed ones — drawn by
kaiming_uniform_(a = sqrt(5)), then the bias uniform in ±1/sqrt(fan_in): PyTorch's
_ConvNd.reset_parameters, so a seed gives PyTorch's numbers. A padding_mode other than
"zeros" pads with F.pad first, then convolves without padding, as PyTorch's _conv_forward.

Simple differences: `kernel_size`, `stride`, `padding`, `dilation` take `3` or `[3, 5]`, and
a one-element list stands for every dimension, as a single int (Simple passes `3` to an
`[i64]` parameter as `[3]`); they are stored as lists and printed as PyTorch's tuples.
`dtype` and `device` are names ("float64", "cuda"), with PyTorch's defaults.

Each class declares PyTorch's attributes and gets its methods from nn/conv.spl's traits
(PyTorch's _ConvNd and _ConvTransposeNd), which also hold the checks and the initialisation.
"""
use lib.torch.{Tensor}
use lib.torch.nn.module.{Module}
use lib.torch.nn.conv.{_ConvNd, _ConvTransposeNd, conv_setup}
'''

LAZY_HEADER = '''# @generated by scripts/gen_nn_classes.py from its table; edit the script, not this file.
"""torch.nn's LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d, LazyBatchNorm1d/2d/3d and
LazyInstanceNorm1d/2d/3d: in_channels (num_features) inferred from the first input, with
PyTorch's arguments.

    val conv = LazyConv2d(8, 3)
    conv(Tensor.randn([1, 3, 16, 16]))     # weight materialised as (8, 3, 3, 3), then initialised
    val bn = LazyBatchNorm1d()             # num_features from the input's dimension 1

How a Lazy module works (the hook, the instance it becomes) is nn/lazy.spl's.
"""
use lib.torch.{Tensor}
use lib.torch.nn.module.{Module}
use lib.torch.nn.conv_classes.{Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d}
use lib.torch.nn.batchnorm.{BatchNorm1d, BatchNorm2d, BatchNorm3d}
use lib.torch.nn.instancenorm.{InstanceNorm1d, InstanceNorm2d, InstanceNorm3d}
use lib.torch.nn.normbase.{NORM_BUFFERS}
use lib.torch.nn.lazy.{LazyModuleMixin, forwarded, lazy_conv, init_conv, lazy_norm, init_norm}
'''


def wrapped(head, items, tail, indent):
    """`head(items)tail` on one line, or its items over lines aligned after the bracket."""
    opening = indent + head + "("
    line = opening + ", ".join(items) + ")" + tail
    if len(line) <= MAX_LINE:
        return [line]
    lines, current = [], opening
    for i, item in enumerate(items):
        piece = item + (", " if i < len(items) - 1 else ")" + tail)
        if current != opening and len(current) + len(piece.rstrip()) > MAX_LINE:
            lines.append(current.rstrip())
            current = " " * len(opening)
        current += piece
    return lines + [current]


def docstring(lines):
    """A class's docstring: its lines indented, the quotes around them."""
    text = ["    " + line for line in lines]
    text[0] = '    """' + lines[0]
    text[-1] += '"""'
    return text


def conv_field_types(transposed):
    """CONV_FIELDS with the family's padding and transposed filled in."""
    padding = ("[i64]", "[]") if transposed else ("any", "nil")
    flag = "true" if transposed else "false"
    out = []
    for name, kind, empty, value in CONV_FIELDS:
        if name == "padding":
            kind, empty = padding
        elif name == "transposed":
            kind, empty, value = "bool", flag, flag
        out.append((name, kind, empty, value))
    return out


def conv_class(name, transposed, n):
    table = conv_field_types(transposed)
    lines = [f"class {name}:"] + docstring(CONV_DOCS[name])
    for field, kind, _, _ in table:
        line = f"    {field}: {kind}"
        if field == "padding" and not transposed:
            line = line.ljust(28) + '# [i64], or "same" / "valid"'
        lines.append(line)
    lines += [CONV_TRAINING, ""]
    args = ["in_channels: i64"] + (CONV_TRANSPOSE_ARGS if transposed else CONV_ARGS)
    lines += wrapped("static fn new", args, f" -> {name}:", "    ")
    setup = ([f'"{name}"', str(n), "in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation"] +
             (["true", "output_padding"] if transposed else ["false", "[0]"]) +
             ["groups", "bias", "padding_mode", "device", "dtype"])
    lines += wrapped("val c = conv_setup", setup, "", "        ")
    lines += wrapped(name, [f"{field}: {value}" for field, _, _, value in table], "", "        ")
    trait = "_ConvTransposeNd" if transposed else "_ConvNd"
    return lines + ["", f"impl {trait} for {name}", f"impl Module for {name}"]


def lazy_fields(table):
    return [f"    {name}: {kind}" for name, kind in table + LAZY_FIELDS]


def lazy_conv_class(inner, transposed):
    name = "Lazy" + inner
    table = [(field, f"{kind}?" if empty == "nil" and kind != "any" and not kind.endswith("?") else kind, empty)
             for field, kind, empty, _ in conv_field_types(transposed)]
    args = CONV_TRANSPOSE_ARGS if transposed else CONV_ARGS
    inner_args = (["0", "0", "kernel_size", "stride", "padding", "output_padding", "groups", "false", "dilation",
                   "padding_mode", "device", "dtype"] if transposed else
                  ["0", "0", "kernel_size", "stride", "padding", "dilation", "groups", "false", "padding_mode",
                   "device", "dtype"])
    lines = [f"class {name}:", f'    """{inner} with in_channels inferred from the first input."""']
    lines += lazy_fields([(field, f"{kind} = {empty}") for field, kind, empty in table]) + [""]
    lines += wrapped("static fn new", args, f" -> {name}:", "    ")
    lines += wrapped(f"val empty = {inner}", inner_args, "", "        ")
    lines.append(f"        lazy_conv({name}(_module: nil), empty, out_channels, bias, device, dtype)")
    lines.append("    fn initialize_parameters(input: Tensor): init_conv(self, input)")
    if transposed:
        lines.append("    fn forward(input: Tensor, output_size: [i64]? = nil) -> Tensor:")
        lines.append("        forwarded(self, \\inner: inner.forward(input, output_size))")
    return lines + ["", f"impl LazyModuleMixin for {name}", f"impl Module for {name}"]


def lazy_norm_class(inner):
    name = "Lazy" + inner
    lines = [f"class {name}:", f'    """{inner} with num_features inferred from the first input (its dimension 1)."""']
    lines += lazy_fields(NORM_FIELDS) + [""]
    lines += wrapped("static fn new", NORM_ARGS, f" -> {name}:", "    ")
    lines.append(f"        val empty = {inner}(0, eps, momentum, false, false, device, dtype, false)")
    lines.append(f"        lazy_norm({name}(_module: nil), empty, affine, track_running_stats, bias, device, dtype)")
    lines.append("    fn initialize_parameters(input: Tensor): init_norm(self, input)")
    lines.append("    fn buffer_names() -> [text]: NORM_BUFFERS")
    return lines + ["", f"impl LazyModuleMixin for {name}", f"impl Module for {name}"]


def module_text(header, blocks, exports):
    body = "\n\n".join("\n".join(block) for block in blocks)
    return header + "\n" + body + "\n\n" + "\n".join("export " + ", ".join(names) for names in exports) + "\n"


def generate_conv():
    blocks = [conv_class(*conv) for conv in CONVS]
    return module_text(CONV_HEADER, blocks, [[name for name, _, _ in CONVS]])


def generate_lazy():
    blocks = [lazy_conv_class(inner, transposed) for inner, transposed, _ in CONVS]
    blocks += [lazy_norm_class(inner) for inner in NORMS]
    exports = [["Lazy" + inner for inner, _, _ in CONVS], ["Lazy" + inner for inner in NORMS]]
    return module_text(LAZY_HEADER, blocks, exports)


OUTPUTS = {CONV_OUTPUT: generate_conv, LAZY_OUTPUT: generate_lazy}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed file differs")
    args = parser.parse_args()
    status = 0
    for output, generate in OUTPUTS.items():
        path = os.path.join(ROOT, output)
        text = generate()
        long_lines = [i + 1 for i, line in enumerate(text.splitlines()) if len(line) > MAX_LINE]
        if long_lines:
            print(f"{output}: lines {long_lines} are over {MAX_LINE} characters: shorten the table", file=sys.stderr)
            return 1
        if args.check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{output} is not scripts/gen_nn_classes.py's output: run the script", file=sys.stderr)
                    status = 1
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
