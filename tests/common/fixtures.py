"""The one writer of Simple fixture files, imported by every tests/*/make_*fixtures.py
(`sys.path.insert(0, <tests>/common)`, then `from fixtures import ...`): Python values as
Simple literals (`lit`), a fixture file of `val ref_<key> = ...` lines (`write`), PyTorch's
error text (`error_text`), and the seed-build-record steps of a module case: run a torch.nn
module the way the Simple spec will (same seed, same construction, same random inputs drawn
in the same order) and record what PyTorch produced.

A module case records, under `<name>_...`:
  params       [[f64]]  every named parameter after construction (flattened), in order
  param_names  [text]   PyTorch's named_parameters() names
  state_keys   [text]   state_dict() keys, in order
  out          [f64]    the forward output, flattened (the first output for tuples)
  out_shape    [i64]
  grads        [[f64]]  every parameter's gradient after `(out * weights).sum().backward()`,
                        where weights = cos(arange(numel)) reshaped like the output: a
                        non-uniform upstream gradient, so that a wrong gradient cannot hide
  input_grads  [[f64]]  the gradients of the inputs that require grad
  repr         text     repr(module)
Inputs are drawn *after* construction (torch.randn(...) in the spec's order).
"""
import math
import os

import torch


def lit(v, tuples=False):
    """A Python value -> a Simple literal: numbers (NumPy's too; nan and inf as the
    expressions that make them, Simple having no such literals), text, None, lists, tuples,
    dicts and NumPy arrays. Tuples become lists, unless `tuples` (lib.python's to_simple keeps
    them as tuples)."""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return "true" if v else "false"
    if isinstance(v, int) or (hasattr(v, "dtype") and getattr(v, "ndim", 1) == 0 and v.dtype.kind in "iu"):
        return str(int(v))
    if isinstance(v, float) or (hasattr(v, "dtype") and getattr(v, "ndim", 1) == 0 and v.dtype.kind == "f"):
        v = float(v)
        if math.isnan(v):
            return "(0.0 / 0.0)"
        if math.isinf(v):
            return "(1.0 / 0.0)" if v > 0 else "(-1.0 / 0.0)"
        return repr(v)
    if v is None:
        return "nil"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("{", "\\{").replace("}", "\\}") + '"'
    if isinstance(v, dict):
        return "{" + ", ".join(lit(k, tuples) + ": " + lit(x, tuples) for k, x in v.items()) + "}"
    if hasattr(v, "tolist") and not isinstance(v, (list, tuple)):
        return lit(v.tolist(), tuples)
    if tuples and isinstance(v, tuple):
        return "(" + ", ".join(lit(x, tuples) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(lit(x, tuples) for x in v) + "]"
    raise TypeError(type(v))


def flat(t):
    return [float(x) for x in t.detach().reshape(-1).double().tolist()]


def upstream(out):
    """The upstream gradient the specs use: cos(0), cos(1), ... shaped like `out`, on its device."""
    return torch.arange(out.numel(), dtype=torch.float64).cos().to(out.dtype).reshape(out.shape).to(out.device)


def constructed(values, name, make, seed=0, train=True):
    """Seeds, builds the module, sets its mode and records what construction gave: the
    parameters, their names, the state_dict keys and the repr. Returns the module."""
    torch.manual_seed(seed)
    m = make()
    m.train(train)
    values[name + "_param_names"] = [n for n, _ in m.named_parameters()]
    values[name + "_params"] = [flat(p) for _, p in m.named_parameters()]
    values[name + "_state_keys"] = list(m.state_dict().keys())
    values[name + "_repr"] = repr(m)
    return m


def record_first_output(values, name, out, args, module=None, backward=True):
    """The output (the first one of a tuple) and its shape; with backward, the gradients of
    the module's parameters and of the input tensors that require grad, after
    `(out * upstream(out)).sum().backward()`."""
    first = out[0] if isinstance(out, tuple) else out
    values[name + "_out"] = flat(first)
    values[name + "_out_shape"] = list(first.shape)
    if backward:
        (first * upstream(first)).sum().backward()
        if module is not None:
            values[name + "_grads"] = [flat(p.grad) if p.grad is not None else [] for _, p in module.named_parameters()]
        values[name + "_input_grads"] = [flat(a.grad) for a in args if isinstance(a, torch.Tensor) and a.requires_grad]


def module_case(values, name, make, inputs, seed=0, train=True, backward=True):
    """make(): the module; inputs(): a list of inputs (tensors or other), drawn after it."""
    m = constructed(values, name, make, seed, train)
    args = inputs()
    out = m(*args)
    record_first_output(values, name, out, args, m, backward)
    return m, out


def error_text(fn):
    """The message of the exception fn() raises: PyTorch's own text."""
    try:
        fn()
    except Exception as e:
        return str(e)
    raise AssertionError("expected an error")


def write(path, script, values, also="", index=False, header=None, export=False, tuples=False):
    """Writes `val ref_<key> = <literal>` lines under a docstring that says where the values
    come from and which script made them. The docstring's opening is `header` (its text up to
    "Generated by", newline or space included), by default PyTorch's version (and `also`: the
    other libraries' versions, e.g. " and sklearn 1.9.1"). With `index`, also `ref_all`, every
    value by its key, for a spec's table of cases; with `export`, an `export` line naming every
    value; `tuples` as in lit."""
    if header is None:
        header = "Reference values from Python PyTorch {}{} (same LibTorch as the plugin).\n".format(torch.__version__, also)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(path, "w", encoding="utf-8") as f:
        f.write('"""' + header)
        f.write('Generated by {}; do not edit by hand."""\n\n'.format(os.path.relpath(os.path.abspath(script), root)))
        for k, v in values.items():
            f.write("val ref_{} = {}\n".format(k, lit(v, tuples)))
        if index:
            f.write("\nval ref_all = {" + ", ".join("{}: ref_{}".format(lit(k), k) for k in values) + "}\n")
        if export:
            f.write("\nexport " + ", ".join("ref_" + k for k in values) + "\n")
