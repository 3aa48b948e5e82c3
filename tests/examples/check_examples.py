#!/usr/bin/env python3
"""Runs each example under examples/ through splrun and checks that it learned what it
claims to: the reference is the task itself (XOR's truth table, the true regression
weights, held-out accuracy), not a stored output.

Numbers are read as splrun prints an f64 (shortest round-trip text: 2.0, -3.4, 1e-05, 1e+20,
nan, inf, -inf). A NaN never passes (every bound is a comparison NaN fails), lists must be as
long as their reference, and output that cannot be read is a FAIL that names the example and
the line, after which the other examples still run.

usage: check_examples.py SPLRUN EXAMPLES_DIR [NAME...]
       check_examples.py --self-test   (the checks against made-up outputs, no splrun)
"""
import glob
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile

# One f64 as splrun prints it (host/base/value.cpp format_float, or a `:.Nf` format spec).
NUMBER = re.compile(r"[-+]?(?:inf|nan|\d+(?:\.\d+)?(?:e[-+]?\d+)?)")


class CheckFailed(AssertionError):
    pass


class Skipped(Exception):
    """An example this build cannot run (python_bridge without libspl_python.so): said, not failed."""


def require(condition, reason):
    """An assert that `python -O` does not remove."""
    if not condition:
        raise CheckFailed(reason)


def run(splrun, path, args=(), launcher=()):
    done = subprocess.run([splrun, *launcher, path, *args], capture_output=True, text=True, timeout=600)
    require(done.returncode == 0, f"{path} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def number(token, line):
    require(NUMBER.fullmatch(token) is not None, f"cannot read {token!r} as a number in the line {line!r}")
    return float(token)


def line_starting(out, prefix):
    for line in out.splitlines():
        if line.startswith(prefix):
            return line
    raise CheckFailed(f"no line starting {prefix!r} in the output")


def list_after(line, prefix):
    """The f64 list printed after `prefix` on `line`, as `[a, b, c]`."""
    text = line[len(prefix):].strip()
    require(text.startswith("[") and text.endswith("]"), f"no [list] after {prefix!r} in the line {line!r}")
    inner = text[1:-1].strip()
    return [number(item.strip(), line) for item in inner.split(",")] if inner else []


def values_after(out, label):
    """The number after `label` on every line that holds it, in order."""
    found = []
    for line in out.splitlines():
        at = line.find(label)
        if at >= 0:
            rest = line[at + len(label):].split()
            require(rest, f"nothing after {label!r} in the line {line!r}")
            found.append(number(rest[0], line))
    require(found, f"no {label!r} in the output")
    return found


def within(got, want, tol):
    return not math.isnan(got) and not math.isnan(want) and abs(got - want) < tol


def check_xor(out):
    require("rounded: [0.0, 1.0, 1.0, 0.0]" in out, "XOR not learned")


def check_regression(out):
    learned = list_after(line_starting(out, "learned w:"), "learned w:")
    true = list_after(line_starting(out, "true w:"), "true w:")
    require(true, "the true weights are an empty list")
    require(len(learned) == len(true), f"{len(learned)} learned weights, {len(true)} true ones: {learned} {true}")
    far = [i for i in range(len(true)) if not within(learned[i], true[i], 0.02)]
    require(not far, f"weights {far} not within 0.02: learned {learned}, true {true}")
    learned_b = values_after(out, "learned b:")[-1]
    true_b = values_after(out, "true b:")[-1]
    require(within(learned_b, true_b, 0.02), f"learned b {learned_b}, true b {true_b}")


def check_cnn(out):
    accuracies = values_after(out, "test accuracy ")
    require(accuracies[-1] >= 0.9, f"final test accuracy {accuracies}")


def check_lstm(out):
    baseline = values_after(out, "baseline (repeat the last value): mse ")[-1]
    test = values_after(out, "test mse ")
    require(math.isfinite(baseline) and baseline > 0, f"baseline mse {baseline}")
    require(test[-1] < 0.5 * baseline, f"test mse {test} against the baseline {baseline}")


def check_digits(out):
    accuracy = values_after(out, "test accuracy of the best checkpoint: ")[-1]
    require(accuracy >= 0.98, f"test accuracy {accuracy} (the issue asks >= 0.98)")


def check_pinn(out):
    error = values_after(out, "largest |u(t) - sin t| on [0, 2 pi]: ")[-1]
    require(error < 0.01, f"largest error against sin t {error}")


def check_straight_through(out):
    accuracy = values_after(out, "test accuracy: ")[-1]
    require(accuracy >= 0.95, f"test accuracy {accuracy} of the quantized network")
    levels = values_after(out, "distinct weight levels: ")[-1]
    require(2 <= levels <= 9, f"{levels} distinct weight levels: not quantized to 9")


def check_python_bridge(out):
    require("conv1.weight is the same tensor on both sides: true" in out, "the Python backbone's parameters are not the Simple Tensors")
    accuracy = values_after(out, "test accuracy ")[-1]
    require(accuracy >= 0.9, f"final test accuracy {accuracy}")
    moved = values_after(out, "largest change of conv1.weight, as Python sees it: ")[-1]
    require(moved > 0, f"the Python backbone's conv1.weight did not move ({moved}): Simple's optimizer did not step it")


def python_plugin(splrun, environ=os.environ):
    """libspl_python.so (lib.python): SPL_PYTHON_PLUGIN as meson sets it (empty where it was not
    built), else the one splrun finds beside itself in a build tree; None where there is none."""
    path = environ.get("SPL_PYTHON_PLUGIN")
    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(splrun)), "..", "runtime_plugin", "python", "libspl_python.so")
    return path if path and os.path.isfile(path) else None


def digits_args(examples, tmp):
    """scikit-learn's digits.csv.gz in the project's .venv, and a checkpoint path."""
    found = glob.glob(os.path.join(examples, "..", ".venv", "lib", "python3*", "site-packages", "sklearn", "datasets", "data", "digits.csv.gz"))
    require(found, "scikit-learn's digits.csv.gz not found in .venv (scripts/setup.sh installs it)")
    return [found[0], os.path.join(tmp, "digits-best.pt")]


# classify_image: its weights and image come from tests/examples/classify_image_reference.py (run by
# the project's .venv), which also prints torchvision's top five for them; classify_args keeps that here.
CLASSIFY_REFERENCE = {}


def classify_args(examples, tmp):
    python = os.path.join(examples, "..", ".venv", "bin", "python")
    require(os.path.exists(python), "the project's .venv (scripts/setup.sh) is needed for torchvision's reference")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "classify_image_reference.py")
    done = subprocess.run([python, script, tmp], capture_output=True, text=True, timeout=600)
    require(done.returncode == 0, f"classify_image_reference.py exited with {done.returncode}:\n{done.stderr}")
    CLASSIFY_REFERENCE.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return [CLASSIFY_REFERENCE["weights"], CLASSIFY_REFERENCE["image"]]


def check_classify_image(out, reference=CLASSIFY_REFERENCE):
    """The same five classes in the same order as torchvision's, probabilities within 1e-5."""
    classes = list_after(line_starting(out, "top-5 classes: "), "top-5 classes: ")
    probabilities = list_after(line_starting(out, "top-5 probabilities: "), "top-5 probabilities: ")
    want = reference["probabilities"]
    require(classes == [float(c) for c in reference["classes"]], f"top-5 classes {classes}, torchvision's {reference['classes']}")
    require(len(probabilities) == len(want) and all(within(p, w, 1e-5) for p, w in zip(probabilities, want)),
            f"top-5 probabilities {probabilities}, torchvision's {want}")


CHECKS = {"xor": check_xor, "regression": check_regression, "cnn": check_cnn, "lstm": check_lstm, "digits": check_digits,
          "pinn": check_pinn, "straight_through": check_straight_through, "ddp_digits": check_digits,
          "classify_image": check_classify_image, "python_bridge": check_python_bridge}
# Examples that run only where lib.python's plugin was built.
NEEDS_PYTHON_PLUGIN = {"python_bridge"}


def check_all(names, check_one, say=print):
    """Runs check_one(name) for each name, says ok or FAIL with the reason for each (any
    exception is a FAIL of that example, not the end of the run; Skipped is a skip, said with
    its reason) and returns how many failed."""
    failed = 0
    for name in names:
        try:
            done = check_one(name)
            say(f"ok   {name}" + (f": {done}" if done else ""))
        except Skipped as e:
            say(f"skip {name}: {e}")
        except AssertionError as e:
            failed += 1
            say(f"FAIL {name}: {e}")
        except Exception as e:  # a timeout, a missing file: this example fails, the rest run
            failed += 1
            say(f"FAIL {name}: {type(e).__name__}: {e}")
    return failed


REGRESSION_OK = "learned w: [1.999, -3.39, 0.5]\ntrue w:    [2.0, -3.4, 0.5]\nlearned b: 4.2001   true b: 4.2\n"
PYTHON_BRIDGE_OK = ("conv1.weight is the same tensor on both sides: true\nepoch 0: loss 0.3373  test accuracy 0.840\n"
                    "epoch 2: loss 0.0073  test accuracy 0.984\nlargest change of conv1.weight, as Python sees it: 0.0193\n")
LSTM_OK = "baseline (repeat the last value): mse 0.0400\nstep  10: train mse 0.0300   test mse 0.0100\n"

# (example, made-up output, whether its check must pass)
SELF_TEST_CASES = [
    ("regression", REGRESSION_OK, True),
    ("regression", "learned w: [1e-05, -3.4, 1e+20]\ntrue w: [1e-05, -3.4, 1e+20]\nlearned b: -inf   true b: 4.2\n", False),
    ("regression", "learned w: [1e-05, -3.4, 1e+20]\ntrue w: [1e-05, -3.4, 1e+20]\nlearned b: 4.2   true b: 4.2\n", True),
    ("regression", "learned w: [nan, nan, nan]\ntrue w:    [2.0, -3.4, 0.5]\nlearned b: 4.2   true b: 4.2\n", False),
    ("regression", "learned w: [2.0]\ntrue w:    [2.0, -3.4, 0.5]\nlearned b: 4.2   true b: 4.2\n", False),
    ("regression", "learned w: []\ntrue w:    []\nlearned b: 4.2   true b: 4.2\n", False),
    ("regression", "learned w: [2.0, -3.4, 0.5]\ntrue w:    [2.0, -3.4, 0.5]\nlearned b: nan   true b: 4.2\n", False),
    ("regression", "learned w: [2.0, oops, 0.5]\ntrue w:    [2.0, -3.4, 0.5]\nlearned b: 4.2   true b: 4.2\n", False),
    ("regression", "true w:    [2.0, -3.4, 0.5]\n", False),
    ("cnn", "epoch 0: loss 0.3000  test accuracy 0.953\n", True),
    ("cnn", "epoch 0: loss 0.3000  test accuracy 0.953\nepoch 1: loss nan  test accuracy nan\n", False),
    ("cnn", "epoch 0: loss nan\n", False),
    ("lstm", LSTM_OK, True),
    ("lstm", LSTM_OK.replace("test mse 0.0100", "test mse nan"), False),
    ("lstm", LSTM_OK.replace("mse 0.0400", "mse nan"), False),
    ("lstm", "step  10: train mse 0.0300   test mse 0.0100\n", False),
    ("digits", "test accuracy of the best checkpoint: 0.9900\n", True),
    ("digits", "test accuracy of the best checkpoint: nan\n", False),
    ("pinn", "largest |u(t) - sin t| on [0, 2 pi]: 0.0002\n", True),
    ("pinn", "largest |u(t) - sin t| on [0, 2 pi]: 0.3\n", False),
    ("pinn", "largest |u(t) - sin t| on [0, 2 pi]: nan\n", False),
    ("straight_through", "test accuracy: 0.99\ndistinct weight levels: 9 (at most 9)\n", True),
    ("straight_through", "test accuracy: 0.6\ndistinct weight levels: 9 (at most 9)\n", False),
    ("straight_through", "test accuracy: 0.99\ndistinct weight levels: 40 (at most 9)\n", False),
    ("xor", "rounded: [0.0, 1.0, 1.0, 0.0] (want [0.0, 1.0, 1.0, 0.0])\n", True),
    ("python_bridge", PYTHON_BRIDGE_OK, True),
    ("python_bridge", PYTHON_BRIDGE_OK.replace("test accuracy 0.984", "test accuracy 0.5"), False),
    ("python_bridge", PYTHON_BRIDGE_OK.replace("test accuracy 0.984", "test accuracy nan"), False),
    ("python_bridge", PYTHON_BRIDGE_OK.replace("Python sees it: 0.0193", "Python sees it: 0.0"), False),
    ("python_bridge", PYTHON_BRIDGE_OK.replace("both sides: true", "both sides: false"), False),
    ("xor", "rounded: [nan, nan, nan, nan] (want [0.0, 1.0, 1.0, 0.0])\n", False),
]


CLASSIFY_SELF_REFERENCE = {"classes": [590, 238, 299, 106, 58], "probabilities": [0.37, 0.058, 0.02, 0.0195, 0.019]}
CLASSIFY_OK = "top-5 classes: [590, 238, 299, 106, 58]\ntop-5 probabilities: [0.37, 0.058, 0.02, 0.0195, 0.019]\n"
CLASSIFY_SELF_TEST = [(CLASSIFY_OK, True),
                      (CLASSIFY_OK.replace("[590, 238", "[238, 590"), False),
                      (CLASSIFY_OK.replace("0.058,", "nan,"), False),
                      (CLASSIFY_OK.replace(", 0.019]", "]"), False),
                      ("top-5 classes: [590, 238, 299, 106, 58]\n", False)]


def self_test():
    """Each check against made-up outputs (NaN, short lists, unreadable lines must FAIL with a
    reason), and check_all going on past an example that raises something else."""
    wrong = 0
    for name, out, should_pass in SELF_TEST_CASES:
        said = []
        check_all([name], lambda n: CHECKS[n](out), say=said.append)
        passed = said[0].startswith("ok")
        good = passed == should_pass and (passed or ": " in said[0])
        wrong += not good
        print(f"{'ok  ' if good else 'WRONG'} want {'ok' if should_pass else 'FAIL'}, got {said[0]!r}")

    for out, should_pass in CLASSIFY_SELF_TEST:
        said = []
        check_all(["classify_image"], lambda n: check_classify_image(out, CLASSIFY_SELF_REFERENCE), say=said.append)
        passed = said[0].startswith("ok")
        good = passed == should_pass and (passed or ": " in said[0])
        wrong += not good
        print(f"{'ok  ' if good else 'WRONG'} want {'ok' if should_pass else 'FAIL'}, got {said[0]!r}")

    def raising(name):
        if name == "first":
            raise subprocess.TimeoutExpired("splrun", 600)

    said = []
    failed = check_all(["first", "second"], raising, say=said.append)
    good = failed == 1 and len(said) == 2 and said[0].startswith("FAIL first: TimeoutExpired") and said[1] == "ok   second"
    wrong += not good
    print(f"{'ok  ' if good else 'WRONG'} a timeout fails one example and the next still runs: {said}")

    def skipping(name):
        raise Skipped("libspl_python.so is not built")

    said = []
    failed = check_all(["python_bridge"], skipping, say=said.append)
    good = failed == 0 and said == ["skip python_bridge: libspl_python.so is not built"]
    wrong += not good
    print(f"{'ok  ' if good else 'WRONG'} a skipped example is said and not failed: {said}")
    good = python_plugin("/nonexistent/host/splrun", {"SPL_PYTHON_PLUGIN": ""}) is None and \
        python_plugin("/nonexistent/host/splrun", {}) is None
    wrong += not good
    print(f"{'ok  ' if good else 'WRONG'} SPL_PYTHON_PLUGIN empty (meson did not build it), or none beside splrun: no plugin")
    total = len(SELF_TEST_CASES) + len(CLASSIFY_SELF_TEST) + 3
    print(f"{total - wrong} of {total} self-test cases as expected")
    return 1 if wrong else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    splrun, examples = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="spl-torch-examples-")

    def check_one(name):
        require(name in CHECKS, f"no such example (known: {', '.join(CHECKS)})")
        if name in NEEDS_PYTHON_PLUGIN and python_plugin(splrun) is None:
            raise Skipped("libspl_python.so (lib.python) is not built in this build")
        args = digits_args(examples, tmp) if name in ("digits", "ddp_digits") else \
            classify_args(examples, tmp) if name == "classify_image" else []
        # ddp_digits: 2 processes under splrun's launcher (DistributedDataParallel over Gloo on loopback)
        launcher = ["--nproc-per-node", "2", "--master-addr", "127.0.0.1", "--master-port", str(free_port())] if name == "ddp_digits" else []
        CHECKS[name](run(splrun, f"{examples}/{name}.spl", args, launcher))

    sys.exit(1 if check_all(sys.argv[3:] or list(CHECKS), check_one) else 0)


if __name__ == "__main__":
    main()
