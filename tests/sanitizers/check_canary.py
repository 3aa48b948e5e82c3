#!/usr/bin/env python3
"""Runs canary (one deliberate bug per sanitizer) under the environment meson
test gives build-asan's tests, and checks that each finding is reported and
aborts the program (SIGABRT), so no test can pass through a finding.

usage: check_canary.py CANARY
"""
import signal
import subprocess
import sys

EXPECTED = {  # bug -> what its report must contain
    "address": "ERROR: AddressSanitizer: heap-buffer-overflow",
    "undefined": "runtime error: signed integer overflow",
    "leak": "ERROR: LeakSanitizer: detected memory leaks",
}


def main():
    canary = sys.argv[1]
    failed = 0
    for kind, report in EXPECTED.items():
        run = subprocess.run([canary, kind], capture_output=True, text=True, timeout=60)
        ok = run.returncode == -signal.SIGABRT and report in run.stderr
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {kind}: exit {run.returncode}, expected SIGABRT and {report!r}")
        if not ok:
            print("  " + run.stderr.strip().replace("\n", "\n  "))
    clean = subprocess.run([canary, "none"], capture_output=True, text=True, timeout=60)
    failed += clean.returncode != 0
    print(f"{'ok  ' if clean.returncode == 0 else 'FAIL'} none: exit {clean.returncode}, expected 0")
    sys.exit(1 if failed else 0)


main()
