#!/usr/bin/env python3
"""`use lib.torch.{vmap}` (and the same for a namespace module) stops the program with the reason
schema/api_exclusions.json gives for the name, through the module's `__getattr__` (lib.torch's
not_offered.spl; the host asks it for a name the module does not export, as Python's PEP 562).
A load-time error cannot be caught inside a spec, so each case is a program of its own.

usage: check_not_offered_use.py SPLRUN   (SIMPLE_LIB and SIMPLE_SFFI_PATH as for the specs)"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def reason(exclusions, ns, name):
    r = exclusions[ns]["excluded"][name]
    return exclusions["reasons"].get(r, r)


def main():
    splrun = sys.argv[1]
    with open(os.path.join(ROOT, "schema", "api_exclusions.json")) as f:
        ex = json.load(f)
    cases = [
        ("use lib.torch.{vmap}", "torch.vmap is not in lib.torch: " + reason(ex, "torch", "vmap")),
        ("use lib.torch.{Tensor, compile}", "torch.compile is not in lib.torch: " + reason(ex, "torch", "compile")),
        ("use lib.torch.nn.{Linear, DataParallel}", "torch.nn.DataParallel is not in lib.torch: " + reason(ex, "torch.nn", "DataParallel")),
        ("use lib.torch.{any}", "torch.any is not in lib.torch under that name: lib.torch spells it `any_`"),
        ("use lib.torch.{linalg}", "torch.linalg is a module of its own in lib.torch: `use lib.torch.linalg`"),
        ("use lib.torch.{no_such_thing}", "module 'torch' has no attribute 'no_such_thing'"),
    ]
    failures = 0
    for program, want in cases:
        with tempfile.NamedTemporaryFile("w", suffix=".spl", delete=False) as f:
            f.write(program + "\nprint \"loaded\"\n")
        try:
            r = subprocess.run([splrun, f.name], capture_output=True, text=True, timeout=120)
        finally:
            os.unlink(f.name)
        if r.returncode != 0 and want in r.stderr and "loaded" not in r.stdout:
            print("ok   " + program)
        else:
            failures += 1
            print("FAIL " + program + ": want an error containing\n       " + want + "\n     got (exit " + str(r.returncode) + "):\n"
                  + r.stdout + r.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
