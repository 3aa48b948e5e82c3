#!/usr/bin/env python3
"""The ratio table of the compare.sh scripts (bench/distributed, bench/models): reads the two
sides' lines, "simple WHAT: T ms" and "python WHAT: T ms", one per round, on stdin, and prints for
each WHAT both sides' best, the ratio of bests, the medians and their ratio (below 1: Simple is
faster)."""
import re
import statistics
import sys

runs = {}
for line in sys.stdin:
    m = re.match(r"(simple|python) (.+): ([0-9.e+-]+) ms", line.strip())
    if m:
        runs.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
for what in sorted({k[1] for k in runs}):
    s, p = runs.get(("simple", what)), runs.get(("python", what))
    if s and p:
        sm, pm = statistics.median(s), statistics.median(p)
        print(f"{what}: simple {min(s):.3f} ms, python {min(p):.3f} ms, ratio {min(s) / min(p):.2f}x;"
              f" medians {sm:.3f} / {pm:.3f} ms, ratio {sm / pm:.2f}x")
