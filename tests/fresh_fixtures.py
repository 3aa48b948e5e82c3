#!/usr/bin/env python3
"""Runs a folder of Simple specs against fixtures made now, on this machine.

Float32 results of LibTorch depend on the CPU it runs on: oneDNN and MKL pick kernels by
instruction set (AVX2, AVX-512), whose sums differ in the last bits, and fifty optimizer
steps carry that past 1e-6 (Python itself, on an AVX-512 machine, differs from fixtures its
make_*fixtures.py wrote on an AVX2 one). So the suite copies the folder into the build tree,
reruns each make_*fixtures.py there with the pinned torch, and runs the specs against what
they wrote: Simple and Python side by side on the same machine and LibTorch, which is what
"equal to PyTorch's" means. The committed fixtures stay the record of one run, for running
a spec by hand.

usage: fresh_fixtures.py PYTHON_WITH_TORCH SPLRUN SPEC_DIR WORK_DIR
"""
import glob
import os
import shutil
import subprocess
import sys
import time


def main():
    python, splrun, spec_dir, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(spec_dir, work, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    start = time.monotonic()
    scripts = sorted(glob.glob(os.path.join(work, "make_*fixtures.py")))
    for script in scripts:
        done = subprocess.run([python, script], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{os.path.basename(script)} failed:\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
    print(f"fixtures made on this machine by {len(scripts)} scripts in {time.monotonic() - start:.1f} s")
    sys.stdout.flush()
    sys.exit(subprocess.run([splrun, "test", work]).returncode)


if __name__ == "__main__":
    main()
