"""Reference values for the lib.python specs (tests/python/*_spec.spl), computed by the Python
that libspl_python embeds (the project's .venv): what Python itself gives for the same
expressions and calls, written as Simple literals to python_fixtures.spl.

Run by tests/fresh_fixtures.py before the specs (and by hand: .venv/bin/python
tests/python/make_python_fixtures.py, from anywhere)."""
import math
import os
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


def kind(o):
    """lib.python's py_kind, as Python decides it."""
    for k, t in (("none", type(None)), ("bool", bool), ("int", int), ("float", float), ("str", str),
                 ("list", list), ("tuple", tuple), ("dict", dict)):
        if isinstance(o, t):
            return k
    return "callable" if callable(o) else "other"


def type_name(o):
    t = type(o)
    return t.__qualname__ if t.__module__ == "builtins" else t.__module__ + "." + t.__qualname__


def error_report(run):
    """Python's report of the exception run() raises, as libspl_python words it: the exception
    line, then Python's traceback without the frame of this script (the one that called in)."""
    try:
        run()
    except BaseException as e:
        headline = "".join(traceback.format_exception_only(type(e), e)).rstrip("\n").split("\n")[-1]
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        full = "".join(traceback.format_exception(type(e), e, tb)).rstrip("\n")
        return headline if full == headline else headline + "\n" + full
    raise AssertionError("expected an error")


MAIN = {"__name__": "__main__", "__builtins__": __builtins__}
# Defined by the errors spec too (py_exec), so that both tracebacks show the same frames.
BOOM = "def boom(n):\n    return {'k': n}['missing']\n"


def bridge_names(values):
    """Python attributes named like operators (torch.mul, numpy.add, operator.sub), and the
    operators on NumPy arrays: what bridge_names_spec.spl computes through lib.python."""
    import operator
    import numpy
    import torch
    values["torch_mul"] = torch.mul(torch.tensor([1.0, -2.0, 3.5]), 2.0).tolist()
    values["numpy_add"] = numpy.add([1, 2, 3], [10, 20, 30]).tolist()
    values["operator_sub"] = operator.sub(5, 3)
    a = numpy.array([[1.0, 2.0], [3.0, 4.0]])
    b = numpy.array([[0.5, 3.0], [2.0, 4.0]])
    values["np_ops"] = {"a + b": (a + b).tolist(), "2 * a": (2 * a).tolist(), "a @ b": (a @ b).tolist(),
                        "1 - a": (1 - a).tolist(), "a / 2": (a / 2).tolist(), "-a": (-a).tolist(),
                        "a ** 2": (a ** 2).tolist(), "a < b": (a < b).tolist(), "a >= b": (a >= b).tolist(),
                        "a == b": (a == b).tolist(), "a != b": (a != b).tolist()}


# Shared with with_spec.spl (py_exec): a context manager that records what happens to it.
TRACKED = """import contextlib
events = []

@contextlib.contextmanager
def tracked(name):
    events.append('enter ' + name)
    try:
        yield name.upper()
    except Exception as e:
        events.append('error seen in ' + name)
        raise
    finally:
        events.append('exit ' + name)
"""


def context_managers(values):
    """The with statement as Python runs it, for with_spec.spl."""
    ns = {"__name__": "__main__"}
    exec(TRACKED, ns)
    tracked, events = ns["tracked"], ns["events"]
    with tracked("a") as v:
        events.append("body " + v)
        with tracked("b") as w:
            events.append("body " + w)
    values["tracked_events"] = list(events)
    values["tracked_code"] = TRACKED

    def no_context_manager():
        with object():
            pass
    values["no_cm_error"] = error_report(no_context_manager)


def tensor_numpy(values):
    """torch.Tensor.numpy as PyTorch does it: dtypes and errors, for numpy_spec.spl."""
    import torch
    dtypes = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool", "complex64",
              "complex128"]
    values["numpy_dtypes"] = [(d, str(torch.zeros(2, dtype=getattr(torch, d)).numpy().dtype)) for d in dtypes]
    values["numpy_bfloat16_error"] = error_report(lambda: torch.zeros(2, dtype=torch.bfloat16).numpy())
    values["numpy_grad_error"] = error_report(lambda: torch.ones(2, requires_grad=True).numpy())
    values["numpy_conj_error"] = error_report(lambda: torch.tensor([1 + 2j]).conj().numpy())
    values["numpy_conj_forced"] = [str(z) for z in torch.tensor([1 + 2j]).conj().numpy(force=True).tolist()]


def main():
    values = {}
    values["sqrt2"] = math.sqrt(2.0)
    values["join"] = os.path.join("a", "b")
    d = eval('{"a": [1, 2.5, None, True, "x"]}')
    values["d_a_1"] = d["a"][1]
    values["d_simple"] = d
    values["f_call"] = (lambda x, y=1, *, z=0: x + y + z)(1, z=10)
    values["range3"] = list(range(3))
    values["version"] = sys.version
    values["prefix"] = sys.prefix

    # (expression, repr, str, kind, type name), each evaluated by the spec with py_eval
    cases = ["[1, 2.5, None, True, 'x']", "(1,)", "{'k': (1, 2), 3: [4]}", "'a\\nb'", "1.0 / 3", "2 ** 70",
             "frozenset()", "b'xy'", "range(3)", "len", "__import__('collections').OrderedDict(a=1)",
             "complex(1, 2)", "None", "True", "-7", "'snow \\u2603'"]
    values["cases"] = [(e, repr(eval(e)), str(eval(e)), kind(eval(e)), type_name(eval(e))) for e in cases]

    # (expression, its to_simple value): nested lists, tuples and dicts of scalars
    simple = ["[1, [2, [3, []]]]", "((1, 'a'), (2.5, None))", "{'x': {'y': (True, False)}, 'z': []}", "()",
              "{1: 'one', 'two': 2}", "[{'k': [None]}]", "(1,)"]
    values["simple"] = [(e, eval(e)) for e in simple]

    # arithmetic and comparisons: (a, op, b, Python's result); ops as lib.python names them
    import operator
    ops = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
           "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "lt": operator.lt,
           "le": operator.le, "eq": operator.eq, "ne": operator.ne, "gt": operator.gt, "ge": operator.ge}
    pairs = [(7, 2), (-7, 2), (2.5, 4), (3, 3), ("ab", "ab")]
    values["arith"] = [(a, name, b, fn(a, b)) for a, b in pairs for name, fn in ops.items()
                       if not (isinstance(a, str) and name not in ("add", "lt", "le", "eq", "ne", "gt", "ge"))]
    values["list_mul"] = [1, 2] * 3
    values["str_add"] = "a" + "bc"

    # slices and items
    xs = list(range(10))
    values["slice_2_5"] = xs[2:5]
    values["slice_step3"] = xs[::3]
    values["slice_neg"] = xs[-3:]
    values["tuple_key"] = {(1, 2): "a"}[(1, 2)]

    # errors, as Python reports them: code run as lib.python runs it ("<string>", in __main__)
    ns = dict(MAIN)

    def run(code, mode="eval"):
        return eval(compile(code, "<string>", mode), ns)

    values["value_error"] = error_report(lambda: run("int('x')"))
    values["attribute_error"] = error_report(lambda: getattr(math, "nosuch"))
    values["syntax_error"] = error_report(lambda: run("1 +"))
    run(BOOM, "exec")
    values["key_error"] = error_report(lambda: run("boom(1)"))
    values["key_error_call"] = error_report(lambda: ns["boom"](1))
    f = run("lambda x, y=1, *, z=0: x + y + z")
    values["type_error"] = error_report(lambda: f(1, 2, 3))
    values["zero_division"] = error_report(lambda: run("1 / 0"))
    values["big_int_repr"] = repr(2 ** 70)

    bridge_names(values)
    context_managers(values)
    tensor_numpy(values)

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_fixtures.spl")
    # Tuples stay tuples: lib.python's to_simple keeps them.
    write(out, __file__, values, tuples=True,
          header="Reference values from Python {} (the Python libspl_python embeds).\n".format(sys.version.split()[0]))


if __name__ == "__main__":
    main()
