#!/usr/bin/env python3
"""Generation checks: determinism, the coverage floor, version stamps, and
that the committed snapshot (generated/, spl_stubs/lib/torch/{ffi,ops}.spl) is the
output of this generator for the pinned LibTorch.

usage: check_generation.py TORCH_CODEGEN NATIVE_FUNCTIONS TAGS VERSION POLICY REPO
"""
import filecmp
import os
import re
import subprocess
import sys
import tempfile
import time

COVERAGE_FLOOR = 99.0
SNAPSHOT = {  # generated output -> committed copy (ffi.spl lives only in spl_stubs: one copy)
    "ir.json": "generated/ir.json",
    "coverage.txt": "generated/coverage.txt",
    "type-table.md": "generated/type-table.md",
}
SNAPSHOT_COPIES = {"ffi.spl": "spl_stubs/lib/torch/ffi.spl", "ops.spl": "spl_stubs/lib/torch/ops.spl"}

failures = []
checks = 0


def check(ok, message):
    global checks
    checks += 1
    if not ok:
        failures.append(message)
        print("FAIL:", message)


def generate(codegen, native, tags, version, policy, out_dir):
    start = time.perf_counter()
    run = subprocess.run([codegen, "generate", "--native-functions", native, "--tags", tags, "--version", version,
                          "--policy", policy, "--out-dir", out_dir, "--shards", "8"],
                         capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit("torch-codegen failed:\n" + run.stderr)
    return run.stdout, elapsed


def main():
    codegen, native, tags, version, policy, repo = sys.argv[1:7]
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        out_a, seconds_a = generate(codegen, native, tags, version, policy, a)
        _, seconds_b = generate(codegen, native, tags, version, policy, b)
        print(out_a.strip())
        print(f"generation wall time: {seconds_a:.3f} s, {seconds_b:.3f} s")

        names = sorted(os.listdir(a))
        check(names == sorted(os.listdir(b)), "two runs wrote different file sets")
        _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
        check(not mismatch and not errors, f"two runs differ in: {mismatch + errors}")

        percent = float(re.search(r"\(([\d.]+)%\)", out_a).group(1))
        check(percent >= COVERAGE_FLOOR, f"coverage {percent}% is below the floor of {COVERAGE_FLOOR}%")

        stamp = f"from LibTorch {version} "
        for name in names:
            with open(os.path.join(a, name), encoding="utf-8") as f:
                head = f.read(400)
            if name != "ir.json":
                check(stamp in head, f"{name} carries no '{stamp.strip()}' stamp")
            else:
                check(f'"libtorch_version": "{version}"' in head, "ir.json carries no libtorch_version")

        pinned = re.search(r"^torch==([\d.]+)", open(os.path.join(repo, "torch-requirements.txt")).read(), re.M)
        if pinned and pinned.group(1) == version:
            for produced, committed in list(SNAPSHOT.items()) + list(SNAPSHOT_COPIES.items()):
                same = filecmp.cmp(os.path.join(a, produced), os.path.join(repo, committed), shallow=False) \
                    if os.path.exists(os.path.join(repo, committed)) else False
                check(same, f"{committed} is stale: run scripts/regenerate.sh and commit the result")
        else:
            print(f"snapshot check skipped: building against LibTorch {version}, the snapshot is for the pin")

    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
