#!/usr/bin/env python3
"""How long `splrun check` takes (issue 40's targets: a ResNet-18-sized model <= 1 s, a 12-layer
transformer <= 2 s), against a normal run of the same program in the same script:
bench/check/resnet18.spl (torchvision's ResNet-18, one SGD step on a batch of 8 224x224 images)
and bench/check/transformer12.spl (BERT-base's encoder sizes, one AdamW step on a batch of 4 x 128
tokens). Each is timed ROUNDS times (default 3), alternating check and run; the best wall time of
each is reported, and what the check printed (nothing, for these correct programs).

    .venv/bin/python bench/check_time.py [ROUNDS]
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPLRUN = os.path.join(ROOT, "build", "host", "splrun")
ENV = dict(os.environ, SIMPLE_SFFI_PATH=os.path.join(ROOT, "build", "runtime_plugin"),
           SIMPLE_LIB=os.path.join(ROOT, "spl_stubs", "lib"))


def timed(args):
    t0 = time.monotonic()
    p = subprocess.run(args, env=ENV, capture_output=True, text=True)
    return time.monotonic() - t0, p


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{'program':<14} {'check (s)':>10} {'run (s)':>10} {'check/run':>10}  check's output")
    for name in ("resnet18", "transformer12"):
        path = os.path.join(ROOT, "bench", "check", f"{name}.spl")
        best_check = best_run = float("inf")
        said = ""
        for _ in range(rounds):
            t, p = timed([SPLRUN, "check", path])
            best_check = min(best_check, t)
            said = (p.stdout + p.stderr).strip() or "(nothing)"
            best_run = min(best_run, timed([SPLRUN, path])[0])
        print(f"{name:<14} {best_check:>10.2f} {best_run:>10.2f} {best_check / best_run:>10.2f}  {said}")


if __name__ == "__main__":
    main()
