#!/usr/bin/env python3
"""Runs each example under examples/ through splrun and checks that it learned what it
claims to: the reference is the task itself (XOR's truth table, the true regression
weights, held-out accuracy), not a stored output.

usage: check_examples.py SPLRUN EXAMPLES_DIR [NAME...]
"""
import glob
import os
import re
import subprocess
import sys
import tempfile


def run(splrun, path, args=()):
    done = subprocess.run([splrun, path, *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"{path} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def numbers(line):
    return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", line)]


def check_xor(out):
    assert "rounded: [0.0, 1.0, 1.0, 0.0]" in out, "XOR not learned"


def check_regression(out):
    learned = numbers(next(l for l in out.splitlines() if l.startswith("learned w:")))
    true = numbers(next(l for l in out.splitlines() if l.startswith("true w:")))
    assert all(abs(a - b) < 0.02 for a, b in zip(learned, true)), (learned, true)
    b_line = next(l for l in out.splitlines() if l.startswith("learned b:"))
    learned_b, true_b = numbers(b_line)
    assert abs(learned_b - true_b) < 0.02, b_line


def check_cnn(out):
    accuracies = [float(m) for m in re.findall(r"test accuracy (\d\.\d+)", out)]
    assert accuracies and accuracies[-1] >= 0.9, f"final test accuracy {accuracies}"


def check_lstm(out):
    baseline = float(re.search(r"baseline \(repeat the last value\): mse (\d+\.\d+)", out).group(1))
    test = [float(m) for m in re.findall(r"test mse (\d+\.\d+)", out)]
    assert test and test[-1] < 0.5 * baseline, f"test mse {test} against the baseline {baseline}"


def check_digits(out):
    m = re.search(r"test accuracy of the best checkpoint: (\d\.\d+)", out)
    assert m and float(m.group(1)) >= 0.98, f"test accuracy {m.group(1) if m else None} (the issue asks >= 0.98)"


def digits_args(examples, tmp):
    """scikit-learn's digits.csv.gz in the project's .venv, and a checkpoint path."""
    found = glob.glob(os.path.join(examples, "..", ".venv", "lib", "python3*", "site-packages", "sklearn", "datasets", "data", "digits.csv.gz"))
    if not found:
        raise AssertionError("scikit-learn's digits.csv.gz not found in .venv (scripts/setup.sh installs it)")
    return [found[0], os.path.join(tmp, "digits-best.pt")]


CHECKS = {"xor": check_xor, "regression": check_regression, "cnn": check_cnn, "lstm": check_lstm, "digits": check_digits}


def check_all(names, check_one):
    """Runs check_one(name) for each name (it raises AssertionError to fail), prints ok or FAIL
    with the reason for each, and exits 1 when any failed."""
    failed = 0
    for name in names:
        try:
            done = check_one(name)
            print(f"ok   {name}" + (f": {done}" if done else ""))
        except AssertionError as e:
            failed += 1
            print(f"FAIL {name}: {e}")
    sys.exit(1 if failed else 0)


def main():
    splrun, examples = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="spl-torch-examples-")

    def check_one(name):
        args = digits_args(examples, tmp) if name == "digits" else []
        CHECKS[name](run(splrun, f"{examples}/{name}.spl", args))

    check_all(sys.argv[3:] or list(CHECKS), check_one)


if __name__ == "__main__":
    main()
