#!/usr/bin/env python3
"""A Python whose torch is another LibTorch (Debian's python3-torch 1.13 under /usr/bin/python3,
SPL_PYTHON and PYTHONPATH naming it): lib.python runs its code, but a Simple Tensor crossing
into it is refused before that torch is imported, with an error naming both versions and both
libtorch_cpu files and offering DLPack; never a crash of two LibTorch builds in one process.
Skipped (77) where /usr/bin/python3 has no torch.

usage: check_other_torch.py SPLRUN        (SIMPLE_LIB and SIMPLE_SFFI_PATH as for the specs)"""
import os
import subprocess
import sys
import tempfile

OTHER = "/usr/bin/python3"
DIST = "/usr/lib/python3/dist-packages"
PROGRAM = """\
use lib.torch.{Tensor}
use lib.python.{py_eval}
val f = py_eval("lambda x: x")
print "scalar {f(3)}"
print f(Tensor.ones([2]))
"""


def ask(python, code, path=""):
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=path))
    return done.stdout.strip() if done.returncode == 0 else None


def main():
    splrun = os.path.abspath(sys.argv[1])
    theirs = ask(OTHER, "import torch; print(torch.__version__)", DIST) if os.path.exists(OTHER) else None
    if theirs is None:
        print(f"SKIP: {OTHER} has no torch (Debian's python3-torch; scripts/setup.sh installs it)")
        sys.exit(77)
    ours = ask(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            ".venv", "bin", "python"), "import torch; print(torch.__version__.split('+')[0])")
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "other.spl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        done = subprocess.run([splrun, program], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, SPL_PYTHON=OTHER, PYTHONPATH=DIST))
    wanted = [f"Python's torch {theirs} (", f") is not lib.torch's LibTorch {ours} (", "libtorch_cpu.so",
              "use to_dlpack / from_dlpack to exchange tensors with this Python"]
    failures = []
    if done.returncode != 1:
        failures.append(f"exit {done.returncode}, not 1 (a signal is a crash)")
    if "scalar 3" not in done.stdout:
        failures.append(f"the other Python did not run plain code: stdout {done.stdout!r}")
    for text in wanted:
        if text not in done.stderr:
            failures.append(f"the error lacks {text!r}: {done.stderr[-1500:]!r}")
    for f in failures:
        print("FAIL: " + f)
    print("ok: a Tensor is refused by a Python whose torch is another LibTorch, naming both" if not failures
          else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
