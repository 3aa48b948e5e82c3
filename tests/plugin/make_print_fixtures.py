#!/usr/bin/env python3
"""Writes tests/plugin/print_fixtures.h: how Python PyTorch prints a few dozen
varied tensors (`str(t)`, the port's reference), each with a recipe the C++
test (tests/plugin/test_printing.cpp) rebuilds the same tensor from: the base
values exactly (hexadecimal floats, or integers), the base shape and dtype,
whether the leaf requires grad, and the view/autograd steps applied to it.

Run with the project venv's python (the same LibTorch the plugin uses):

    .venv/bin/python tests/plugin/make_print_fixtures.py
"""
import math
import os
import random
import warnings

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "print_fixtures.h")

# The steps both sides know. The C++ test applies each through the plugin's
# operator of the same name (see apply_step in test_printing.cpp).
def quantize_with_scale(text):
    """Step "quantize@<scale>": quint8 per tensor with that scale (zero point 3)."""
    return lambda t: torch.quantize_per_tensor(t, float(text), 3, torch.quint8)


def no_grad_slice(t):
    with torch.no_grad():
        return t[:2]


def no_grad_add_(t):
    with torch.no_grad():
        return t.add_(1)


STEPS = {
    "view_as_complex": torch.view_as_complex,  # base [..., 2] real -> complex
    "conj": torch.conj,  # lazy conjugate bit
    "neg_view": torch._neg_view,  # lazy negative bit
    "transpose": lambda t: t.transpose(0, 1),  # non-contiguous view
    "add_one": lambda t: t + 1,  # grad_fn=<AddBackward0>
    "mul_two": lambda t: t * 2,  # grad_fn=<MulBackward0>
    "sum": torch.sum,  # 0-d, grad_fn=<SumBackward0>
    "clone": torch.clone,  # a non-leaf that requires grad
    "no_grad_slice": no_grad_slice,  # t[:2] made in no_grad mode
    "no_grad_add_": no_grad_add_,  # then changed in place: reading grad_fn fails, printed <Invalid>
    "to_meta": lambda t: t.to("meta"),  # no values: "..." and the size
    "zerotensor": lambda t: torch._efficientzerotensor(t.shape, dtype=t.dtype),  # ZeroTensor bit
    "nested_rows": lambda t: torch._nested_tensor_from_tensor_list(list(t.unbind(0))),  # nested_tensor([...])
    "to_sparse": lambda t: t.to_sparse(),  # indices=..., values=...
    "to_sparse_csr": lambda t: t.to_sparse(layout=torch.sparse_csr),
    "to_sparse_csc": lambda t: t.to_sparse(layout=torch.sparse_csc),
    "to_mkldnn": lambda t: t.to_mkldnn(),
    "quantize": lambda t: torch.quantize_per_tensor(t, 0.1, 3, torch.quint8),
    # along dim 0 of a [2, n] tensor, the scales and zero points test_printing.cpp uploads too
    "quantize_per_channel": lambda t: torch.quantize_per_channel(
        t, torch.tensor([0.1, 0.25], dtype=torch.float64), torch.tensor([0, 2]), 0, torch.qint8
    ),
}


def seeded(seed, *shape, dtype=torch.float32):
    torch.manual_seed(seed)
    return torch.randn(*shape).to(dtype)


def pairs(values):
    """Complex values as the [..., 2] float tensor view_as_complex takes."""
    return torch.view_as_real(torch.tensor(values, dtype=torch.complex128)).clone()


nan, inf = math.nan, math.inf

# (name, base tensor, dtype of the base, leaf requires grad, steps)
CASES = [
    # Floats: int mode, fixed, scientific (each trigger), widths.
    ("arange float (int mode)", torch.arange(6.0), torch.float32, False, []),
    ("linspace", torch.linspace(0, 1, 7), torch.float32, False, []),
    ("explicit mixed sign", torch.tensor([-1.5, 2.25, 0.0, 3.125]), torch.float32, False, []),
    ("randn 3x4", seeded(0, 3, 4), torch.float32, False, []),
    ("randn 2x3x4", seeded(1, 2, 3, 4), torch.float32, False, []),
    ("large values: sci (max > 1e8)", torch.tensor([1.0e9, 1.0, 2.5]), torch.float32, False, []),
    ("tiny values: sci (min < 1e-4)", torch.tensor([1.0e-5, 0.5]), torch.float32, False, []),
    ("ratio > 1000: sci", torch.tensor([0.001, 2.0]), torch.float32, False, []),
    ("int mode + sci", torch.tensor([1.0, 5000.0, -3.0]), torch.float32, False, []),
    ("int mode at 1e8 (not sci)", torch.tensor([1.0e8, 2.0e7]), torch.float32, False, []),
    ("wide fixed values", torch.tensor([123456.789, -0.5, 42.0]), torch.float64, False, []),
    ("nan and inf among values", torch.tensor([nan, inf, -inf, 1.5]), torch.float32, False, []),
    ("nan and inf in int mode", torch.tensor([nan, -inf, 2.0, -7.0]), torch.float32, False, []),
    ("nan and inf in sci mode", torch.tensor([nan, inf, 1.0e-7, 3.0]), torch.float32, False, []),
    ("only nan and inf", torch.tensor([nan, inf, -inf]), torch.float32, False, []),
    ("zeros 2x3", torch.zeros(2, 3), torch.float32, False, []),
    ("negative zero", torch.tensor([-0.0, 1.0]), torch.float32, False, []),
    ("rounding at precision 4", torch.tensor([1.00005, 0.33333, 2.5e-4]), torch.float64, False, []),
    # Summarization (numel > 1000) and line wrapping (linewidth 80).
    ("1200 floats summarized", torch.arange(1200.0) * 0.5, torch.float32, False, []),
    ("1200 ints summarized", torch.arange(1200), torch.int64, False, []),
    ("3-d summarized", seeded(2, 10, 12, 15), torch.float32, False, []),
    ("2-d summarized", seeded(3, 40, 30), torch.float32, False, []),
    ("2-d summarized, short rows", seeded(4, 500, 3), torch.float32, False, []),
    ("2-d summarized, short columns", seeded(5, 3, 500), torch.float32, False, []),
    ("1001 elements summarized", torch.arange(1001), torch.int64, False, []),
    ("1000 elements not summarized", torch.arange(1000) % 7, torch.int64, False, []),
    ("wide 1-d row wraps", seeded(6, 30), torch.float32, False, []),
    ("wide int row wraps", torch.arange(40) * 1000, torch.int64, False, []),
    ("wide 2-d rows wrap", seeded(7, 3, 12), torch.float32, False, []),
    ("wide 3-d rows wrap", seeded(8, 2, 2, 14) * 1000, torch.float32, False, []),
    # Empty and 0-d.
    ("empty [0, 3]", torch.zeros(0, 3), torch.float32, False, []),
    ("empty [2, 0, 4] int64", torch.zeros(2, 0, 4), torch.int64, False, []),
    ("empty [0] float32", torch.zeros(0), torch.float32, False, []),
    ("empty [0] int64", torch.zeros(0), torch.int64, False, []),
    ("empty [0] bool", torch.zeros(0), torch.bool, False, []),
    ("empty [0] float64", torch.zeros(0), torch.float64, False, []),
    ("0-d float", torch.tensor(3.5), torch.float32, False, []),
    ("0-d int-valued float", torch.tensor(-2.0), torch.float32, False, []),
    ("0-d int", torch.tensor(7), torch.int64, False, []),
    ("0-d nan", torch.tensor(nan), torch.float32, False, []),
    ("0-d bool", torch.tensor(True), torch.bool, False, []),
    ("0-d tiny", torch.tensor(1.0e-6), torch.float64, False, []),
    # Integer and bool dtypes.
    ("int8 mixed sign", torch.tensor([-128, 5, 127, 0]), torch.int8, False, []),
    ("uint8", torch.tensor([[0, 255], [17, 3]]), torch.uint8, False, []),
    ("int16", torch.tensor([-300, 12]), torch.int16, False, []),
    ("int32 2-d", torch.tensor([[1, -22], [333, 4]]), torch.int32, False, []),
    ("int64 large", torch.tensor([2**62, -5, 0]), torch.int64, False, []),
    ("bool 2-d", torch.tensor([[True, False, True], [False, False, True]]), torch.bool, False, []),
    # Reduced and double precision floats.
    ("float16", seeded(9, 5), torch.float16, False, []),
    ("bfloat16", seeded(10, 2, 3), torch.bfloat16, False, []),
    ("float64", seeded(11, 4), torch.float64, False, []),
    ("float64 int-valued", torch.tensor([1.0, 2.0]), torch.float64, False, []),
    ("float16 int-valued", torch.tensor([1.0, -65504.0]), torch.float16, False, []),
    ("float8_e4m3fn", torch.tensor([0.5, -1.25, 300.0, 1e-3]), torch.float32, False, ["to:float8_e4m3fn"]),
    ("float8_e5m2", torch.tensor([[0.5, -1.25], [3.0, 2.0]]), torch.float32, False, ["to:float8_e5m2"]),
    # Complex: real and imaginary parts formatted separately.
    ("complex64 (issue example)", pairs([13 + 0j, -2 - 1j, 0.5 + 2.25j]), torch.float32, False, ["view_as_complex"]),
    ("complex128 randn", seeded(12, 3, 2), torch.float64, False, ["view_as_complex"]),
    ("complex64 2-d", seeded(13, 2, 3, 2), torch.float32, False, ["view_as_complex"]),
    ("complex64 sci imaginary", pairs([1 + 1e-6j, 2 + 300j]), torch.float32, False, ["view_as_complex"]),
    ("complex64 negative zero imaginary", pairs([complex(1, -0.0), 2 + 0j]), torch.float32, False, ["view_as_complex"]),
    ("complex64 nan", pairs([complex(nan, 1), complex(2, inf)]), torch.float32, False, ["view_as_complex"]),
    ("complex64 conj()", pairs([13 + 0j, -2 - 1j, 0.5 + 2.25j]), torch.float32, False, ["view_as_complex", "conj"]),
    ("complex128 conj()", seeded(14, 2, 2), torch.float64, False, ["view_as_complex", "conj"]),
    ("complex32", pairs([1 + 2j, 0.5 - 3j]), torch.float32, False, ["view_as_complex", "to:complex32"]),
    ("complex 0-d", pairs(1.5 - 2j), torch.float32, False, ["view_as_complex"]),
    ("complex summarized", seeded(15, 1200, 2), torch.float32, False, ["view_as_complex"]),
    ("complex wide row wraps", seeded(16, 12, 2), torch.float64, False, ["view_as_complex"]),
    ("complex neg_view of conj", pairs([1 + 2j, -3 - 4j]), torch.float32, False, ["view_as_complex", "conj", "neg_view"]),
    # Lazy negative bit, non-contiguous views.
    ("neg_view float64", torch.tensor([1.5, -2.0, 3.0]), torch.float64, False, ["neg_view"]),
    ("neg_view int64", torch.tensor([1, -2, 3]), torch.int64, False, ["neg_view"]),
    ("transposed", seeded(17, 2, 3), torch.float32, False, ["transpose"]),
    # Tensors without plain values: meta, efficient zeros, nested.
    ("meta float32", seeded(25, 2, 3), torch.float32, False, ["to_meta"]),
    ("meta uint8", torch.tensor([[1, 2]]), torch.uint8, False, ["to_meta"]),
    ("meta int64", torch.tensor([1, 2]), torch.int64, False, ["to_meta"]),
    ("efficient zero tensor", torch.zeros(2, 3), torch.float32, False, ["zerotensor"]),
    ("nested rows", torch.arange(6.0).reshape(2, 3), torch.float32, False, ["nested_rows"]),
    ("nested rows with grad", torch.arange(6.0).reshape(2, 3), torch.float32, True, ["nested_rows"]),
    ("nested int64 rows", torch.arange(8).reshape(2, 4) * 100, torch.int64, False, ["nested_rows"]),
    # Sparse, MKL-DNN and quantized layouts.
    ("sparse COO", torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]]), torch.float32, False, ["to_sparse"]),
    ("sparse COO int64 all zero", torch.zeros(2, 3), torch.int64, False, ["to_sparse"]),
    ("sparse CSR", torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]]), torch.float64, False, ["to_sparse_csr"]),
    ("sparse CSC", torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]]), torch.float32, False, ["to_sparse_csc"]),
    ("mkldnn", torch.arange(6.0).reshape(2, 3), torch.float32, False, ["to_mkldnn"]),
    ("quantized per tensor", seeded(26, 2, 3), torch.float32, False, ["quantize"]),
    # the scale is printed as repr(float): fixed or scientific by exponent
    ("quantized scale 2.5e-05", seeded(28, 3) * 1e-4, torch.float32, False, ["quantize@2.5e-05"]),
    ("quantized scale 0.0003", seeded(29, 3) * 1e-2, torch.float32, False, ["quantize@0.0003"]),
    ("quantized scale 123.456", seeded(30, 3) * 1e4, torch.float32, False, ["quantize@123.456"]),
    ("quantized scale 1e+16", seeded(31, 3) * 1e17, torch.float32, False, ["quantize@1e+16"]),
    ("quantized per channel", seeded(27, 2, 4), torch.float32, False, ["quantize_per_channel"]),
    # Autograd suffixes.
    ("requires_grad leaf", seeded(18, 3), torch.float32, True, []),
    ("grad_fn AddBackward0", seeded(19, 3), torch.float32, True, ["add_one"]),
    ("grad_fn MulBackward0 float64", seeded(20, 2, 2), torch.float64, True, ["mul_two"]),
    ("grad_fn SumBackward0", seeded(21, 4), torch.float32, True, ["sum"]),
    ("grad_fn TransposeBackward0", seeded(22, 2, 3), torch.float32, True, ["transpose"]),
    ("grad_fn Invalid", seeded(32, 3), torch.float32, True, ["clone", "no_grad_slice", "no_grad_add_"]),
    ("suffix wraps past linewidth", seeded(23, 7), torch.float64, True, ["add_one"]),
    ("suffix wraps after a multi-line body", seeded(24, 2, 7) * 1000, torch.float64, True, ["mul_two"]),
]


def random_cases(count, seed):
    """Seeded variety beyond the hand-picked cases: random shapes, dtypes and
    magnitudes (1e-9 .. 1e11, so every formatter mode comes up), some rounded
    to integers, some with a nan/inf/zero, some complex, conjugated or negated."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        kind = rng.choice(["float", "float", "float", "int", "bool", "complex"])
        shape = tuple(rng.choice([1, 2, 3, 5, 9]) for _ in range(rng.choice([0, 1, 1, 2, 2, 3])))
        torch.manual_seed(1000 + i)
        scale = 10 ** rng.uniform(-9, 11)
        name = f"random #{i} ({kind})"
        if kind == "float":
            dtype = rng.choice([torch.float32, torch.float64, torch.float16, torch.bfloat16])
            base = torch.randn(shape) * scale
            if rng.random() < 0.3:
                base = base.round()
            if rng.random() < 0.2 and base.numel() > 2:
                base.view(-1)[0] = rng.choice([nan, inf, -inf, 0.0, -0.0])
            steps = rng.choice([[], [], ["neg_view"]] + ([["transpose"]] if len(shape) >= 2 else []))
            cases.append((name, base, dtype, False, steps))
        elif kind == "int":
            dtype = rng.choice([torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64])
            high = {torch.int8: 127, torch.uint8: 255, torch.int16: 30000, torch.int32: 2**31 - 1, torch.int64: 2**62}
            low = 0 if dtype == torch.uint8 else -high[dtype]
            cases.append((name, torch.randint(low, high[dtype], shape, dtype=torch.int64), dtype, False, []))
        elif kind == "bool":
            cases.append((name, torch.rand(shape) > 0.5, torch.bool, False, []))
        else:
            dtype = rng.choice([torch.float32, torch.float64])
            base = torch.randn(shape + (2,)) * scale
            if rng.random() < 0.3:
                base = base.round()
            steps = ["view_as_complex"] + rng.choice([[], ["conj"], ["conj", "neg_view"]])
            cases.append((name, base, dtype, False, steps))
    return cases


CASES += random_cases(60, seed=7)


def build(base, dtype, requires_grad, steps):
    t = base.to(dtype)
    if requires_grad:
        t.requires_grad_(True)
    for step in steps:
        if step.startswith("quantize@"):
            t = quantize_with_scale(step[len("quantize@") :])(t)
        elif step.startswith("to:"):  # "to:<dtype>": t.to(dtype), for dtypes the upload cannot make
            t = t.to(getattr(torch, step[len("to:") :]))
        else:
            t = STEPS[step](t)
    return t


def c_string(text):
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            raise ValueError(f"non-ASCII character in {text!r}")
    return '"' + "".join(out) + '"'


def c_double(v):
    """Exact: a hexadecimal float literal, or the <cmath> macro for nan/inf."""
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return v.hex()


def wrapped(items, per_line=8, indent="      "):
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return ("{\n" + indent + (",\n" + indent).join(lines) + "}") if items else "{}"


def main():
    warnings.filterwarnings("ignore")  # the nested-tensor prototype warning
    names = set()
    arrays = []  # the values live in static arrays: a braced list of thousands
    entries = []  # of values inside cases() would be built on the stack
    for index, (name, base, dtype, requires_grad, steps) in enumerate(CASES):
        assert name not in names, name
        names.add(name)
        t = build(base, dtype, requires_grad, steps)
        expected = str(t)
        base = base.to(dtype)
        flat = base.reshape(-1).tolist()
        if not flat:
            values = "{}, {}"
        elif base.dtype.is_floating_point:
            arrays.append(f"const double kValues{index}[] = " + wrapped([c_double(float(v)) for v in flat]) + ";")
            values = f"all(kValues{index}), {{}}"
        else:
            arrays.append(f"const int64_t kValues{index}[] = " + wrapped([str(int(v)) for v in flat], per_line=16) + ";")
            values = f"{{}}, all(kValues{index})"
        entries.append(
            "    {" + c_string(name) + ", " + c_string(str(dtype).replace("torch.", "")) + ",\n"
            + "     {" + ", ".join(str(s) for s in base.shape) + "},\n"
            + "     " + values + ",\n"
            + "     " + ("true" if requires_grad else "false") + ", {"
            + ", ".join(c_string(s) for s in steps) + "},\n"
            + "     " + c_string(expected) + "}"
        )
    with open(OUT, "w") as f:
        f.write(
            "// Generated by tests/plugin/make_print_fixtures.py from Python PyTorch "
            + torch.__version__ + "; do not edit.\n"
            "// Each case: the text `str(t)` gives and the recipe that rebuilds t.\n"
            "#pragma once\n\n"
            "#include <cmath>\n#include <cstddef>\n#include <cstdint>\n#include <string>\n#include <vector>\n\n"
            "namespace print_fixtures {\n\n"
            "// The LibTorch these texts come from: only a plugin on another one may skip a case.\n"
            "inline constexpr const char* kLibTorchVersion = \"" + torch.__version__.split("+")[0] + "\";\n\n"
            "struct Case {\n"
            "    const char* name;\n"
            "    const char* dtype;               // dtype of the base tensor\n"
            "    std::vector<int64_t> shape;      // shape of the base tensor\n"
            "    std::vector<double> floats;      // base values, when the dtype is floating\n"
            "    std::vector<int64_t> ints;       // base values, otherwise (bool as 0/1)\n"
            "    bool requires_grad;              // of the base leaf\n"
            "    std::vector<std::string> steps;  // applied in order (see make_print_fixtures.py)\n"
            "    const char* expected;            // str(t) in Python\n"
            "};\n\n"
            "namespace values {\n\n"
            "template <class T, size_t N>\n"
            "std::vector<T> all(const T (&values)[N]) { return std::vector<T>(values, values + N); }\n\n"
            + "\n".join(arrays)
            + "\n\n} // namespace values\n\n"
            "inline const std::vector<Case>& cases() {\n"
            "    using namespace values;\n"
            "    static const std::vector<Case> all_cases = {\n"
            + ",\n".join(entries)
            + "};\n    return all_cases;\n}\n\n} // namespace print_fixtures\n"
        )
    print(f"wrote {len(entries)} cases to {OUT}")


if __name__ == "__main__":
    main()
