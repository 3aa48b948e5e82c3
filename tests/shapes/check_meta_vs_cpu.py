#!/usr/bin/env python3
"""Runs meta_vs_cpu.spl twice, on CPU tensors and in a shapes-only run (SPL_TORCH_SHAPES_ONLY=1,
every tensor on meta), and checks that both exit 0, that the first line says each run's device
(`device: cpu`, `device: meta`: the shapes-only run must really be on meta, or the comparison
compares a run with itself), and that the rest are the same lines (each a name, a shape and a
dtype), at least MIN_LINES of them: the shapes `splrun check` reasons with are a run's.

    check_meta_vs_cpu.py SPLRUN PROGRAM

The caller sets SIMPLE_SFFI_PATH and SIMPLE_LIB. Python 3 standard library only.
"""
import os
import subprocess
import sys

MIN_LINES = 50


def run(splrun, program, shapes_only):
    env = dict(os.environ)
    env.pop("SPL_TORCH_SHAPES_ONLY", None)
    if shapes_only:
        env["SPL_TORCH_SHAPES_ONLY"] = "1"
    p = subprocess.run([splrun, program], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout.splitlines(), p.stderr


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    failed = 0
    results = {}
    for label, shapes_only in (("cpu", False), ("meta", True)):
        rc, lines, err = run(argv[1], argv[2], shapes_only)
        results[label] = lines
        if rc != 0:
            print(f"FAIL the {label} run exits {rc}:\n{err}")
            failed += 1
    cpu, meta = results["cpu"], results["meta"]
    for label, lines in (("cpu", cpu), ("meta", meta)):
        first = lines[0] if lines else ""
        if first != f"device: {label}":
            print(f"FAIL the {label} run's first line is '{first}', not 'device: {label}'")
            failed += 1
    cpu, meta = cpu[1:], meta[1:]
    if len(cpu) < MIN_LINES:
        print(f"FAIL the cpu run printed {len(cpu)} lines (at least {MIN_LINES})")
        failed += 1
    for n, (a, b) in enumerate(zip(cpu, meta), 1):
        if a != b:
            print(f"FAIL line {n}: cpu '{a}', meta '{b}'")
            failed += 1
    if len(cpu) != len(meta):
        print(f"FAIL the cpu run printed {len(cpu)} lines, the meta run {len(meta)}")
        failed += 1
    print(f"# {len(cpu)} shapes compared, {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
