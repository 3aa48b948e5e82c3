"""DistributedDataParallel on loopback (127.0.0.1), every run bounded in time:

- 2 Simple ranks of ddp.spl and 2 Python ranks of ddp_ref.py (PyTorch's DDP): every printed
  line equal, rank by rank (exactly: the same ATen calls in the same order);
- DDP on 2 ranks of 16 equals one process on the batch of 32 (`single`) within 1e-6, for
  plain DDP, no_sync accumulation, find_unused_parameters and a static graph (20 iterations:
  what one rank, where every reduction is the identity, cannot show);
- one process group, two languages: rank 0 runs ddp_ref.py (Python), rank 1 ddp.spl (Simple);
  both ranks' parameters after 20 steps are identical to each other and to the all-Python run.

and ddp_spec.spl (one rank: repr, names, errors against make_ddp_fixtures.py's ddp_fixtures.spl).

Usage: run_ddp.py BUILD_DIR (skipped, 77, without splrun or Gloo).
"""
import os
import subprocess
import sys

import run_ranks as rr

failures = []
DEADLINE = 90


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)


def start(commands):
    """Starts one rank per command on a fresh port (run_ranks.py's starter); [(rc, stdout,
    stderr)] or None after DEADLINE."""
    return rr.run_ranks(lambda rank: commands[rank], len(commands), DEADLINE, {"OMP_NUM_THREADS": "1"})


def parse(out):
    lines = {}
    for line in out.splitlines():
        name, _, values = line.partition(":")
        numeric = not (name in ("done", "state_dict keys") or name.startswith("sampler"))
        lines[name] = [float(v) for v in values.split()] if numeric else values.strip()
    return lines


def ran(label, results):
    check(results is not None, f"{label}: ends within {DEADLINE} s")
    if results is None:
        return None
    outs = []
    for rank, (rc, out, err) in enumerate(results):
        check(rc == 0, f"{label}: rank {rank} exits 0" + (f" ({err.strip()[-600:]})" if rc else ""))
        outs.append(parse(out))
    return outs


def max_diff(a, b):
    if len(a) != len(b):
        return float("inf")
    return max((abs(x - y) if x == x and y == y else float("inf")) for x, y in zip(a, b))


def main():
    if not (rr.BUILD / "host" / "splrun").exists():
        print("skipped: no splrun in", rr.BUILD)
        return 77
    probe = rr.run_ranks(rr.simple_command("gloo_available.spl"), 1, 60)
    if probe is None or probe[0][1].strip() != "true":
        print("skipped: this plugin has no Gloo backend", probe and probe[0])
        return 77
    env = dict(os.environ, SIMPLE_SFFI_PATH=str(rr.BUILD / "runtime_plugin"),
               SIMPLE_LIB=os.environ.get("SIMPLE_LIB") or str(rr.ROOT / "spl_stubs" / "lib"))
    spec = subprocess.run([str(rr.BUILD / "host" / "splrun"), "test", str(rr.HERE / "ddp_spec.spl")], env=env,
                          capture_output=True, text=True, timeout=DEADLINE, cwd=rr.ROOT)
    check(spec.returncode == 0 and " 0 failed" in spec.stdout,
          "ddp_spec.spl (1-rank group: repr, names, errors, buckets, no_sync, static graph)" +
          ("" if spec.returncode == 0 else f": {spec.stdout[-1500:]} {spec.stderr[-600:]}"))
    simple_cmd = rr.simple_command("ddp.spl")
    python_cmd = [str(rr.PYTHON), str(rr.HERE / "ddp_ref.py")]
    simple = ran("2 Simple ranks", start([simple_cmd, simple_cmd]))
    python = ran("2 Python ranks", start([python_cmd, python_cmd]))
    mixed = ran("Python rank 0 + Simple rank 1", start([python_cmd, simple_cmd]))
    if simple is None or python is None or mixed is None:
        print(f"{len(failures)} failures")
        return 1
    for rank in range(2):
        s, p = simple[rank], python[rank]
        check(len(p) >= 14 and p.get("done") == "ok", f"Python rank {rank} printed {len(p)} results")
        for name in p:
            check(s.get(name) == p[name], f"Simple = Python DDP, rank {rank}: {name}" +
                  ("" if s.get(name) == p[name] else f": Simple {s.get(name)} Python {p[name]}"))
        check(not sorted(set(s) - set(p)), f"rank {rank}: no result Python lacks")
        n = len(s["single"])
        for kind in ("ddp", "nosync", "unused", "static"):
            d = max_diff(s.get(kind, [])[:n], s["single"])
            check(d <= 1e-6, f"2 ranks x 16 = 1 process x 32 after 20 steps, {kind}, rank {rank}: max |diff| {d:.2e}")
        check(s["unused"][n:] == s["unused init"][n:] and len(s["unused"]) == n + 9,
              f"find_unused_parameters, rank {rank}: the unused branch is left as rank 0 made it")
    for kind in ("ddp", "nosync", "unused", "bn", "static"):
        check(simple[0][kind] == simple[1][kind], f"{kind}: both Simple ranks hold the same parameters")
        check(mixed[0][kind] == mixed[1][kind],
              f"one group, two languages, {kind}: Python rank 0 and Simple rank 1 hold identical parameters")
        check(mixed[0][kind] == python[0][kind], f"one group, two languages, {kind}: = the all-Python run")
    check(mixed[1]["bn buffers"] == python[1]["bn buffers"], "one group, two languages: rank 1's BatchNorm buffers")
    check(simple[0]["ddp init"] == simple[1]["ddp init"] == python[0]["ddp init"],
          "construction broadcasts rank 0's parameters (rank 1's model was made from another seed)")
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
