#!/usr/bin/env python3
"""Runs each PyTorch program of examples/port/ (NAME.py, by the project's .venv: the pinned
torch) and its line-by-line Simple port (NAME.spl, by splrun through the plugin), and checks that
they print the same text, line for line: the same seeds, the same data order and the same ATen
calls in the same order give the same losses, accuracies and perplexities to the last bit, so
the reference is Python's own run, made at test time on this machine.

A run that fails, prints nothing to compare, prints fewer epochs than expected, or prints a NaN
or an infinity (on both sides alike too) is a FAIL that names the program and the line.

usage: check_ports.py SPLRUN PYTHON PORT_DIR [NAME...]
       check_ports.py --self-test   (the comparison against made-up outputs, no programs run)
"""
import glob
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_examples import check_all  # noqa: E402  (one runner for both checkers)

# Every number either side prints: an f64 as Python's repr and splrun's shortest round-trip text.
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:inf|nan|\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])")


class CheckFailed(AssertionError):
    pass


def require(condition, reason):
    """An assert that `python -O` does not remove."""
    if not condition:
        raise CheckFailed(reason)


def digits_csv(python):
    """scikit-learn's digits.csv.gz in the .venv that PYTHON belongs to: the Simple port reads the
    file that sklearn.datasets.load_digits() reads in the Python program."""
    venv = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    found = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "sklearn", "datasets", "data", "digits.csv.gz"))
    require(found, f"scikit-learn's digits.csv.gz not found under {venv} (scripts/setup.sh installs it)")
    return found[0]


# name: (epoch lines each side must print, the Simple port's arguments from PYTHON)
PROGRAMS = {
    "digits_classifier": (3, lambda python: [digits_csv(python)]),
    "word_lm": (5, lambda python: []),
}


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    require(done.returncode == 0, f"{' '.join(command)} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def compare(python_out, simple_out, epochs):
    """Python's and Simple's printed text, line for line; `epochs` lines starting "epoch " with
    only finite numbers in them."""
    want, got = python_out.splitlines(), simple_out.splitlines()
    for number, (w, g) in enumerate(zip(want, got), start=1):
        require(w == g, f"line {number} differs:\n  Python: {w}\n  Simple: {g}")
    require(len(want) == len(got), f"Python printed {len(want)} lines, Simple {len(got)}:\n  Python: {want[len(got):]}\n"
            f"  Simple: {got[len(want):]}")
    epoch_lines = [line for line in want if line.startswith("epoch ")]
    require(len(epoch_lines) == epochs, f"{len(epoch_lines)} epoch lines, {epochs} expected: {epoch_lines}")
    for line in epoch_lines:
        numbers = [float(n) for n in NUMBER.findall(line)]
        require(len(numbers) > 2 and all(math.isfinite(n) for n in numbers), f"not finite numbers in the line {line!r}")
    return f"{len(want)} lines equal, {epochs} epochs"


OK = ("1437 training images\nNet(\n  (fc): Linear(in_features=4, out_features=2, bias=True)\n)\n"
      "epoch 1: lr 0.05 train loss 1.2345678901234567 accuracy 0.5\n"
      "epoch 2: lr 0.025 train loss 0.6931471805599453 accuracy 0.9583333333333334\n")

# (Python's output, Simple's, whether the comparison must pass)
SELF_TEST_CASES = [
    (OK, OK, True),
    (OK, OK.replace("0.6931471805599453", "0.6931471805599454"), False),   # the last digit
    (OK, OK.replace("lr 0.025", "lr 0.0250"), False),                      # the same value, other text
    (OK, OK.replace("1437", "1438"), False),
    (OK, OK.replace("bias=True", "bias=False"), False),
    (OK, OK + "epoch 3: lr 0.0125 train loss 0.5 accuracy 0.9\n", False),  # Simple prints more
    (OK, OK[:OK.index("epoch 2")], False),                                 # Simple stops early
    (OK.replace("0.6931471805599453", "nan"), OK.replace("0.6931471805599453", "nan"), False),
    (OK.replace("accuracy 0.5", "accuracy inf"), OK.replace("accuracy 0.5", "accuracy inf"), False),
    (OK[:OK.index("epoch 2")], OK[:OK.index("epoch 2")], False),           # equal, but too few epochs
    ("", "", False),
]


def self_test():
    wrong = 0
    for python_out, simple_out, should_pass in SELF_TEST_CASES:
        said = []
        check_all(["made-up"], lambda n: compare(python_out, simple_out, 2), say=said.append)
        passed = said[0].startswith("ok")
        good = passed == should_pass
        wrong += not good
        print(f"{'ok  ' if good else 'WRONG'} want {'ok' if should_pass else 'FAIL'}, got {said[0].splitlines()[0]!r}")
    print(f"{len(SELF_TEST_CASES) - wrong} of {len(SELF_TEST_CASES)} self-test cases as expected")
    return 1 if wrong else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    splrun, python, port_dir = sys.argv[1], sys.argv[2], sys.argv[3]

    def check_one(name):
        require(name in PROGRAMS, f"no such program (known: {', '.join(PROGRAMS)})")
        epochs, arguments = PROGRAMS[name]
        python_out = run([python, os.path.join(port_dir, name + ".py")])
        simple_out = run([splrun, os.path.join(port_dir, name + ".spl"), *arguments(python)])
        return compare(python_out, simple_out, epochs)

    sys.exit(1 if check_all(sys.argv[4:] or list(PROGRAMS), check_one) else 0)


if __name__ == "__main__":
    main()
