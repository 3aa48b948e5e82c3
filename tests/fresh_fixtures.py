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

usage: fresh_fixtures.py PYTHON_WITH_TORCH SPLRUN SPEC_DIR WORK_DIR [--from-copy-root] [--splrun-flag=FLAG ...]

--from-copy-root: the specs run from WORK_DIR's parent, for folders whose specs name their
files by repository path (tests/data/files/...): WORK_DIR is then .../tests, so those paths
resolve inside the copy.

--splrun-flag=FLAG: run `splrun FLAG test ...` (--no-fast-paths, --simple-runtime-ffi), so that
every run of a folder's specs, whatever its call path, compares with this machine's fixtures.

The copy is WORK_DIR/<the folder's name>; the folder's siblings (tests/common beside tests/spl:
every make_*fixtures.py imports common/fixtures.py) are linked beside it, to the sources, so that
each suite has its own tree and no suite reads a copy another is rewriting.
"""
import glob
import os
import shutil
import subprocess
import sys
import time


def fresh_copy(python, spec_dir, work_parent):
    """WORK_PARENT/<SPEC_DIR's name>: a copy of the folder whose make_*fixtures.py were run again
    there with PYTHON (its siblings linked beside it). Returns the copy's path; exits 1 naming a
    fixture script that fails. PYTHON None: the committed fixtures are kept (for a LibTorch
    other than the pin, which the pinned torch's results do not describe either)."""
    spec_dir = os.path.abspath(spec_dir)
    shutil.rmtree(work_parent, ignore_errors=True)
    work = os.path.join(work_parent, os.path.basename(spec_dir))
    shutil.copytree(spec_dir, work, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    source_tests = os.path.dirname(spec_dir)
    for sibling in os.listdir(source_tests):
        if sibling != os.path.basename(spec_dir) and os.path.isdir(os.path.join(source_tests, sibling)):
            os.symlink(os.path.join(source_tests, sibling), os.path.join(work_parent, sibling))
    if python is None:
        print("fixtures as committed (the pinned torch is not this LibTorch)")
        sys.stdout.flush()
        return work
    start = time.monotonic()
    scripts = sorted(glob.glob(os.path.join(work, "make_*fixtures.py")))
    for script in scripts:
        done = subprocess.run([python, script], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{os.path.basename(script)} failed:\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
    print(f"fixtures made on this machine by {len(scripts)} scripts in {time.monotonic() - start:.1f} s")
    sys.stdout.flush()
    return work


def main():
    python, splrun, spec_dir, work_parent = sys.argv[1:5]
    options = sys.argv[5:]
    from_root = "--from-copy-root" in options
    flags = [o.split("=", 1)[1] for o in options if o.startswith("--splrun-flag=")]
    work = fresh_copy(python, spec_dir, work_parent)
    cwd = os.path.dirname(os.path.abspath(work_parent)) if from_root else None
    sys.exit(subprocess.run([splrun, *flags, "test", work], cwd=cwd).returncode)


if __name__ == "__main__":
    main()
