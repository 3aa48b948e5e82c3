#!/usr/bin/env python3
"""The table of bench/python_bridge/compare.sh: reads the timed rounds' lines ("simple WHAT: T ns
per call" and "python WHAT: T ns per call", one per round) on stdin and prints, for each call,
both sides' best (the ratio of bests) and the medians of the rounds' bests; then the
instructions of one call, counted by callgrind as bench/instructions.py counts them (the
difference between two call counts, so that start-up cancels: its per_iteration), unless
COUNT=0; and the crossing of a 1-element against a 100,000,000-element tensor."""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import instructions  # noqa: E402  (bench/instructions.py: its callgrind runs and environment)

SIMPLE = lambda what: lambda n: [instructions.SPLRUN, os.path.join(HERE, "bridge.spl"), what, str(n)]  # noqa: E731
PYTHON = lambda what: lambda n: [instructions.PYTHON, os.path.join(HERE, "bridge.py"), what, str(n)]  # noqa: E731
# (row, the workload's WHAT, Simple's two call counts, Python's): enough calls that the
# difference is millions of instructions on both sides.
COUNTED = [("f(int)", "int", 2000, 4000, 100000, 200000), ("f(Tensor)", "tensor", 2000, 4000, 100000, 200000)]


def main():
    runs = {}
    for line in sys.stdin:
        m = re.match(r"(simple|python) (.+): ([0-9.e+-]+) ns per call", line.strip())
        if m:
            runs.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
    print("time of one call (best of the rounds; medians of the rounds' bests):")
    for what in dict.fromkeys(k[1] for k in runs):
        s, p = runs.get(("simple", what)), runs.get(("python", what))
        if s and p:
            sm, pm = statistics.median(s), statistics.median(p)
            print(f"  {what:30s} Simple {min(s):8.0f} ns   Python {min(p):6.1f} ns   ratio {min(s) / min(p):6.1f}x;"
                  f" medians {sm:.0f} / {pm:.1f} ns, {sm / pm:.1f}x")
    one, big = runs.get(("simple", "lambda t: t, 1 element")), runs.get(("simple", "lambda t: t, 100M elements"))
    if one and big:
        print(f"crossing a tensor, Simple -> Python -> Simple: 100M elements {min(big):.0f} ns, 1 element {min(one):.0f} ns,"
              f" ratio {min(big) / min(one):.2f}x (no copy)")
    sys.stdout.flush()
    if os.environ.get("COUNT", "1") == "0":
        return
    print("instructions of one call (callgrind, the difference of two call counts):")
    for row, what, s1, s2, p1, p2 in COUNTED:
        s_ir = instructions.per_iteration(SIMPLE(what), s1, s2)
        p_ir = instructions.per_iteration(PYTHON(what), p1, p2)
        print(f"  {row:30s} Simple {s_ir:8.0f}      Python {p_ir:6.0f}      ratio {s_ir / p_ir:6.1f}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
