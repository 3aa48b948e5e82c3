#!/usr/bin/env python3
"""Instructions per operation, counted by callgrind, next to timed figures: Simple (splrun +
lib.torch + the plugin) against Python eager PyTorch on the same LibTorch, and the plugin's
calling paths against at::add. Timings on these shared machines move by 2x from run to run;
instruction counts do not, so they are the stable figure (issue 14's targets are stated in them).

Each workload runs under `valgrind --tool=callgrind` for two iteration counts, and
(I(n2) - I(n1)) / (n2 - n1) is the cost of one iteration: start-up cancels. The same workloads
run natively with more iterations for the timed column (best of 3). OMP_NUM_THREADS=1 and
PYTHONHASHSEED=0 on both sides, so that neither counts thread start-up or hashing noise.

The start-up row is not differential: the whole process, `use lib.torch.*` (or Python's `import
torch`) to the first add's result, its instructions and wall time (best of 5).

    bench/instructions.py            # about 15 minutes on 2 cores (Python's import under valgrind)
    bench/instructions.py add calls  # some rows only
    bench/instructions.py --guard    # the per-op guard (test `per-op instructions`), below

The guard keeps the cost of one operator from creeping up unnoticed: a one-element add through
lib.torch (`a + b` in a Simple loop) against the same add called directly on LibTorch from C
(`icount_calls direct`), both counted here, must stay within GUARD_RATIO. Against the direct
call rather than Python: the same kernels on both sides whatever the machine's vector width, and
no Python start-up under valgrind (a minute) in CI. It exits 1 above the ratio, 77 (a skip)
without valgrind.
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("SPL_TORCH_BUILD") or os.path.join(ROOT, "build")  # the meson test names its own
SPLRUN = os.path.join(BUILD, "host", "splrun")
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
PLUGIN = os.path.join(BUILD, "runtime_plugin", "libspl_torch.so")
CALLS = os.path.join(BUILD, "bench", "icount_calls")
ENV = dict(os.environ, SIMPLE_SFFI_PATH=os.path.dirname(PLUGIN), SIMPLE_LIB=os.path.join(ROOT, "spl_stubs", "lib"),
           SPL_TORCH_PLUGIN=PLUGIN, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")


def simple(name):
    path = os.path.join(ROOT, "bench", "add_loop.spl" if name == "add" else os.path.join("icount", name + ".spl"))
    return lambda n: [SPLRUN, path, str(n)]


def shape_types(mode, size):
    return lambda n: [SPLRUN, os.path.join(ROOT, "bench", "icount", "shape_types.spl"), mode, size, str(n)]


def python(name):
    return lambda n: [PYTHON, os.path.join(ROOT, "bench", "icount", "workloads.py"), name, str(n)]


STARTUP = {"simple": [SPLRUN, os.path.join(ROOT, "bench", "icount", "startup.spl")],
           "python": [PYTHON, os.path.join(ROOT, "bench", "icount", "workloads.py"), "startup"]}


def calls(mode):
    return lambda n: [CALLS, mode, str(n)]


# (row, side, command for n iterations, n1, n2, timed n)
WORKLOADS = {
    "add": [("simple", simple("add"), 2000, 4000, 100000), ("python", python("add"), 2000, 4000, 100000)],
    "method": [("simple", simple("method"), 2000, 4000, 100000), ("python", python("method"), 2000, 4000, 100000)],
    "linear_relu": [("simple", simple("linear_relu"), 200, 400, 3000),
                    ("python", python("linear_relu"), 200, 400, 3000)],
    "custom_function": [("simple", simple("custom_function"), 200, 400, 5000),
                        ("python", python("custom_function"), 200, 400, 5000)],
    "calls": [(mode, calls(mode), 20000, 40000, 0) for mode in ("direct", "typed", "boxed", "word")],
    "shape_types": [(mode, shape_types(mode, "mlp"), 10, 20, 200) for mode in ("plain", "typed")],
    "shape_types_tiny": [(mode, shape_types(mode, "tiny"), 200, 400, 3000) for mode in ("plain", "typed")],
}
LABELS = {"add": "1-element add (a + b)", "method": "Tensor method returning a Tensor (a.neg())",
          "linear_relu": "Linear(16, 16) + ReLU forward and backward, nn",
          "custom_function": "custom autograd Function (Exp) forward and backward", "calls": "1-element add in C",
          "shape_types": "nn-step MLP (784-256-10, batch 64) step, shape types on the step function (3 checks) against plain Tensor",
          "shape_types_tiny": "Linear(16, 16) + ReLU + Linear step, batch 4, shape types (3 checks) against plain Tensor"}
TARGETS = {"add": "target <= 0.8x", "linear_relu": "target <= 0.9x", "custom_function": "target <= 1.0x", "typed": "target <= 1.03x",
           "boxed": "target <= 1.07x", "startup": "target <= 0.3 s",
           "shape_types": "target <= 1.03x", "shape_types_tiny": ""}


def instructions(command):
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}"] + command,
                              capture_output=True, text=True, env=ENV)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"{' '.join(command)} under callgrind failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_iteration(command, n1, n2):
    with ThreadPoolExecutor(2) as pool:
        i1, i2 = pool.map(lambda n: instructions(command(n)), (n1, n2))
    return (i2 - i1) / (n2 - n1)


def timed(command, n):
    best = float("inf")
    for _ in range(3):
        out = subprocess.run(command(n), capture_output=True, text=True, env=ENV, check=True).stdout
        best = min(best, float(re.search(r"([0-9.]+) ns per (?:iteration|add)", out).group(1)))
    return best


def wall_seconds(command, runs=5):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=ENV, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def startup():
    print("`use lib.torch.*` (Python: `import torch`) to the first add's result, whole process:")
    simple, python = (STARTUP[side] for side in ("simple", "python"))
    with ThreadPoolExecutor(2) as pool:
        s_ir, p_ir = pool.map(instructions, (simple, python))
    s_s, p_s = wall_seconds(simple), wall_seconds(python)
    print(f"  Simple {s_ir / 1e9:6.3f} G instructions {s_s:6.3f} s   Python {p_ir / 1e9:6.3f} G instructions "
          f"{p_s:6.3f} s   ratio {s_ir / p_ir:.3f}x instructions, {s_s / p_s:.2f}x time   {TARGETS['startup']}")


# Simple's add over the direct at::add. Python eager's add is about 1.58x the direct call; the
# host's own cost per operator sits well under it, and a change that walks a body the host used
# to plan (or allocates per call) moves this ratio by a tenth or more.
GUARD_RATIO = 1.33


def guard():
    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        print("skipped: valgrind is not installed")
        return 77
    (_, simple_add, n1, n2, _), direct = WORKLOADS["add"][0], WORKLOADS["calls"][0]
    s_ir = per_iteration(simple_add, n1, n2)
    d_ir = per_iteration(direct[1], direct[2], direct[3])
    ratio = s_ir / d_ir
    verdict = "ok" if ratio <= GUARD_RATIO else "FAIL"
    print(f"{verdict}   1-element add: Simple {s_ir:.0f} instructions, at::add called directly {d_ir:.0f}: "
          f"{ratio:.3f}x (the guard: at most {GUARD_RATIO}x)")
    return 0 if verdict == "ok" else 1


def main():
    if sys.argv[1:] == ["--guard"]:
        sys.exit(guard())
    rows = sys.argv[1:] or list(WORKLOADS) + ["startup"]
    for row in rows:
        if row == "startup":
            startup()
            continue
        results = {}
        for side, command, n1, n2, n_timed in WORKLOADS[row]:
            results[side] = (per_iteration(command, n1, n2), timed(command, n_timed) if n_timed else None)
        print(f"{LABELS[row]}:")
        if row.startswith("shape_types"):
            (p_ir, p_ns), (t_ir, t_ns) = results["plain"], results["typed"]
            print(f"  plain {p_ir:10.0f} instructions {p_ns:10.0f} ns   typed {t_ir:10.0f} instructions "
                  f"{t_ns:10.0f} ns   ratio {t_ir / p_ir:.3f}x instructions, {t_ns / p_ns:.2f}x time   "
                  f"{TARGETS[row]}")
        elif row == "calls":
            base = results["direct"][0]
            for side, (ir, _) in results.items():
                print(f"  {side:8s} {ir:10.0f} instructions   {ir / base:.3f}x at::add   {TARGETS.get(side, '')}")
        else:
            (s_ir, s_ns), (p_ir, p_ns) = results["simple"], results["python"]
            print(f"  Simple {s_ir:10.0f} instructions {s_ns:10.0f} ns   Python {p_ir:10.0f} instructions "
                  f"{p_ns:10.0f} ns   ratio {s_ir / p_ir:.3f}x instructions, {s_ns / p_ns:.2f}x time   "
                  f"{TARGETS.get(row, '')}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
