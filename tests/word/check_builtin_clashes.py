#!/usr/bin/env python3
"""No symbol of the plugin may take the name of one of the real Simple interpreter's built-in
rt_torch_* functions (schema/real_runtime_builtins.json, with the sources it was read from):
that interpreter calls the symbol of that name in libspl_torch.so with the built-in's own C
signature, so a function of ours under that name would be called wrongly. A name may be
shared only where the built-in is listed with `"provided": true`, meaning that our symbol has
exactly that signature and meaning (none is, today). Reads the exported dynamic symbols of
the built plugin, the ground truth.

usage: check_builtin_clashes.py PLUGIN BUILTINS_JSON
"""
import json
import subprocess
import sys


def exported(plugin):
    out = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    plugin, builtins_file = sys.argv[1], sys.argv[2]
    builtins = json.load(open(builtins_file))["builtins"]
    symbols = exported(plugin)
    clashes = [b for b in builtins if b["name"] in symbols and not b.get("provided", False)]
    for b in clashes:
        print(f"FAIL: {plugin} exports {b['name']}, a built-in of the real Simple runtime, "
              f"which calls it as `{b['c_signature']}`")
    words = sum(1 for s in symbols if s.startswith("spl_w_"))
    print(f"{len(builtins)} built-in names checked against {len(symbols)} exported symbols "
          f"({words} of them word adapters or word-list functions): {len(clashes)} clashes")
    sys.exit(1 if clashes else 0)


if __name__ == "__main__":
    main()
