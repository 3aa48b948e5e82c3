#!/usr/bin/env python3
"""host/'s folders follow its pipeline: no file includes a header of a later stage.

The stages, in order (host/README.md, "Layout"):

    base -> syntax -> resolve -> ffi -> eval -> tools

A file may include headers of its own folder and of earlier folders only. Every
`#include "..."` of a host header names its folder, from host/ as the include root
(`#include "syntax/ast.h"`); a bare name of a host header (`#include "ast.h"`) is refused
too, as is a source file outside the stage folders. Includes of other trees
(`spl_plugin.h`, from runtime_plugin/) are not looked at.

Prints every offending edge as `FILE:LINE: FROM -> TO (...)` and exits 1 when there is one.

usage: check_layout.py [HOST_DIR]     (default: the host/ next to tests/)
"""
import os
import re
import sys

STAGES = ["base", "syntax", "resolve", "ffi", "eval", "tools"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    host = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "host")
    host = os.path.normpath(host)

    sources = []
    for root, _, files in os.walk(host):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                sources.append(os.path.relpath(os.path.join(root, name), host).replace(os.sep, "/"))
    sources.sort()
    headers = {s for s in sources if not s.endswith((".cpp", ".cc", ".c"))}
    by_name = {}
    for h in headers:
        by_name.setdefault(os.path.basename(h), []).append(h)

    problems = []
    edges = 0
    for src in sources:
        stage = src.split("/")[0]
        if "/" not in src or stage not in STAGES:
            problems.append(f"host/{src}: not in a stage folder ({', '.join(STAGES)})")
            continue
        with open(os.path.join(host, src), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"host/{src}:{lineno}"
                if target in headers:
                    to = target.split("/")[0]
                    edges += 1
                    if STAGES.index(to) > STAGES.index(stage):
                        problems.append(f"{where}: {stage} -> {to} ({src} includes {target}: "
                                        f"{to} comes after {stage} in {' -> '.join(STAGES)})")
                elif os.path.basename(target) in by_name and "/" not in target:
                    problems.append(f"{where}: #include \"{target}\" names no folder "
                                    f"(write #include \"{by_name[target][0]}\")")
                elif target.split("/")[0] in STAGES:
                    problems.append(f"{where}: #include \"{target}\": no such host header")

    if problems:
        print("\n".join(problems))
        print(f"host layout: {len(problems)} problem(s); stages in order: {' -> '.join(STAGES)}")
        return 1
    print(f"host layout: {len(sources)} files, {edges} includes of host headers, "
          f"none of a later stage ({' -> '.join(STAGES)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
