#!/usr/bin/env python3
"""The launcher, `splrun --nproc-per-node N PROGRAM.spl ARGS` (host/tools/launcher.h), run on the
workers in tests/host/launcher/: torchrun's environment for 1, 2 and 3 workers and for the
multi-node flags; options passed on to the workers; a failing worker (an error, a signal) stops
its siblings and is named in the report; the launcher stopped by SIGINT, by `timeout` and by
`timeout -s KILL` leaves no worker behind; bad flags; the `env(name)` built-in. Each run is
bounded (loopback only, no plugin).

usage: check_launcher.py SPLRUN WORKERS_DIR
"""
import os
import re
import signal
import subprocess
import sys
import time
import uuid

SPLRUN, HERE = sys.argv[1], sys.argv[2]
FAILED = []
PASSED = 0


def check(name, ok, detail=""):
    global PASSED
    if ok:
        PASSED += 1
    else:
        FAILED.append(name)
        print(f"FAIL {name}\n{detail}", file=sys.stderr)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "RANK", "WORLD_SIZE")}
    env.update(extra)
    return env


def run(args, env=None, timeout=30):
    t0 = time.monotonic()
    p = subprocess.run([SPLRUN] + args, capture_output=True, text=True, env=env or clean_env(), timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def workers_of(tag):
    """Pids of live processes whose command line holds `tag`, with their RANK (None if unreadable)."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if tag.encode() not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    found[int(pid)] = "zombie"
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
            found[int(pid)] = env.get(b"RANK", b"").decode() or None
        except OSError:
            pass
    return found


def wait_for_workers(launcher, tag, n, limit=20.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        w = {pid: r for pid, r in workers_of(tag).items() if pid != launcher.pid and r not in (None, "zombie")}
        if len(w) == n:
            return w
        time.sleep(0.05)
    return {}


def wait_stopped(pid, limit=10.0):
    """True once every thread of `pid` is in the stopped state: SIGSTOP takes effect only when the
    target next runs, and until then a default-action SIGTERM still kills it at once."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            states = []
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    states.append(f.read().rsplit(")", 1)[1].split()[0])
            if states and all(s == "T" for s in states):
                return True
        except OSError:
            return False
        time.sleep(0.01)
    return False


def none_left(name, tag):
    time.sleep(0.2)
    left = workers_of(tag)
    check(name + ": no worker left behind", not left, f"left: {left}")


def parse_workers(stdout):
    rows = []
    for line in stdout.splitlines():
        if line.startswith("worker "):
            fields = dict(f.split("=", 1) for f in re.findall(r"\S+=(?:\[[^\]]*\]|\S+)", line))
            rows.append(fields)
    return sorted(rows, key=lambda r: int(r["RANK"]))


prog = os.path.join(HERE, "print_env.spl")

# 1, 2 and 3 workers on one node: torchrun's variables, the program's arguments passed on
for n in (1, 2, 3):
    rc, out, err, _ = run(["--nproc-per-node", str(n), prog, "a", "b c"])
    rows = parse_workers(out)
    check(f"N={n}: exit 0", rc == 0, err)
    check(f"N={n}: one line per worker", len(rows) == n, out + err)
    for r, row in enumerate(rows):
        want = {"RANK": str(r), "LOCAL_RANK": str(r), "WORLD_SIZE": str(n), "LOCAL_WORLD_SIZE": str(n),
                "GROUP_RANK": "0", "GROUP_WORLD_SIZE": "1", "ROLE_RANK": str(r), "ROLE_WORLD_SIZE": str(n),
                "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500", "TORCHELASTIC_RUN_ID": "none",
                "OMP_NUM_THREADS": "1" if n > 1 else "-", "SPL_LAUNCHER_UNSET": "-", "fast_paths": "true",
                "args": '["a", "b c"]'}
        got = {k: row.get(k) for k in want}
        check(f"N={n}: rank {r}'s environment", got == want, f"got  {got}\nwant {want}")
    note = "splrun: setting OMP_NUM_THREADS=1 for each worker"
    check(f"N={n}: OMP_NUM_THREADS note", (note in err) == (n > 1), err)

# the multi-node flags, in both spellings and both forms; options before and after them passed on
rc, out, err, _ = run(["-L", HERE, "--nproc_per_node=2", "--nnodes", "2", "--node_rank=1", "--no-fast-paths",
                       "--master-addr", "127.0.0.2", "--master_port=29511", prog])
rows = parse_workers(out)
check("multi-node: exit 0", rc == 0, err)
check("multi-node: ranks 2 and 3", [r.get("RANK") for r in rows] == ["2", "3"], out + err)
for r, row in zip((2, 3), rows):
    want = {"RANK": str(r), "LOCAL_RANK": str(r - 2), "WORLD_SIZE": "4", "LOCAL_WORLD_SIZE": "2", "GROUP_RANK": "1",
            "GROUP_WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.2", "MASTER_PORT": "29511", "fast_paths": "false",
            "args": "[]"}
    got = {k: row.get(k) for k in want}
    check(f"multi-node: rank {r}'s environment", got == want, f"got  {got}\nwant {want}")

# OMP_NUM_THREADS already set: kept, and no note
rc, out, err, _ = run(["--nproc-per-node", "2", prog], env=clean_env(OMP_NUM_THREADS="3"))
check("OMP_NUM_THREADS kept", rc == 0 and [r["OMP_NUM_THREADS"] for r in parse_workers(out)] == ["3", "3"]
      and "OMP_NUM_THREADS=1" not in err, out + err)

# a worker that raises an error: its siblings (which would spin 60 s) stopped, the report names it
tag = "tag-" + uuid.uuid4().hex
rc, out, err, took = run(["--nproc-per-node", "3", os.path.join(HERE, "fail.spl"), "1", tag])
check("error: exit 1", rc == 1, err)
check("error: siblings stopped quickly", took < 10, f"took {took:.1f} s")
check("error: the worker's own report passed on", "error: boom on rank 1\n" in err, err)
for line in ("fail.spl FAILED", "Failures:", "  <NO_OTHER_FAILURES>", "Root Cause (first observed failure):",
             "[0]:", "  rank      : 1 (local_rank: 1)"):
    check(f"error: report line {line!r}", any(l.endswith(line) if line.endswith("FAILED") else l == line
                                               for l in err.splitlines()), err)
check("error: exit code and pid", re.search(r"^  exitcode  : 1 \(pid: \d+\)$", err, re.M) is not None, err)
check("error: the error line and its location",
      re.search(r"^  error     : error: boom on rank 1 \(at \S*fail\.spl:11:5\)$", err, re.M) is not None, err)
check("error: no other output", "ran for 60 s" not in out, out)
none_left("error", tag)

# a worker killed by a signal
tag = "tag-" + uuid.uuid4().hex
launcher = subprocess.Popen([SPLRUN, "--nproc-per-node", "2", os.path.join(HERE, "spin.spl"), "60", tag],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
workers = wait_for_workers(launcher, tag, 2)
check("signal: two workers seen", len(workers) == 2, str(workers))
victim = next((pid for pid, r in workers.items() if r == "1"), None)
if victim:
    t0 = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    out, err = launcher.communicate(timeout=30)
    took = time.monotonic() - t0
    check("signal: exit 1", launcher.returncode == 1, err)
    check("signal: sibling stopped quickly", took < 10, f"took {took:.1f} s")
    check("signal: rank named", "\n  rank      : 1 (local_rank: 1)\n" in err, err)
    check("signal: exit code", f"\n  exitcode  : -9 (pid: {victim}) (SIGKILL)\n" in err, err)
    check("signal: traceback line", f"\n  traceback : Signal 9 (SIGKILL) received by PID {victim}\n" in err, err)
else:
    launcher.kill()
    launcher.communicate()
none_left("signal", tag)

# a sibling that does not end at SIGTERM (stopped: SIGSTOP holds the SIGTERM pending) gets SIGKILL
# after the grace period (5 s)
tag = "tag-" + uuid.uuid4().hex
launcher = subprocess.Popen([SPLRUN, "--nproc-per-node", "2", os.path.join(HERE, "spin.spl"), "60", tag],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
workers = wait_for_workers(launcher, tag, 2)
check("grace: two workers seen", len(workers) == 2, str(workers))
by_rank = {r: pid for pid, r in workers.items()}
if len(by_rank) == 2:
    os.kill(by_rank["0"], signal.SIGSTOP)
    check("grace: rank 0 stopped", wait_stopped(by_rank["0"]))
    t0 = time.monotonic()
    os.kill(by_rank["1"], signal.SIGKILL)
    out, err = launcher.communicate(timeout=30)
    took = time.monotonic() - t0
    check("grace: exit 1, rank 1 the root cause", launcher.returncode == 1
          and "\n  rank      : 1 (local_rank: 1)\n" in err and "<NO_OTHER_FAILURES>" in err, err)
    check("grace: SIGKILL after about 5 s", 4.5 <= took < 15, f"took {took:.1f} s")
else:
    launcher.kill()
    launcher.communicate()
none_left("grace", tag)

# Ctrl-C (SIGINT) to the launcher stops the workers; the status is 128 + SIGINT
tag = "tag-" + uuid.uuid4().hex
launcher = subprocess.Popen([SPLRUN, "--nproc-per-node", "2", os.path.join(HERE, "spin.spl"), "60", tag],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
check("SIGINT: two workers seen", len(wait_for_workers(launcher, tag, 2)) == 2)
launcher.send_signal(signal.SIGINT)
out, err = launcher.communicate(timeout=30)
check("SIGINT: status 130", launcher.returncode == 130, err)
check("SIGINT: said so", "splrun: received SIGINT: workers stopped" in err, err)
check("SIGINT: no failure report", "FAILED" not in err, err)
none_left("SIGINT", tag)

# under `timeout`: SIGTERM, and SIGKILL (the workers die with the launcher: PR_SET_PDEATHSIG)
# (`timeout -s KILL` kills its own process group too, itself included: -9 here, 137 in a shell)
for sig, status in (("TERM", (124,)), ("KILL", (137, -9))):
    tag = "tag-" + uuid.uuid4().hex
    t0 = time.monotonic()
    p = subprocess.run(["timeout", "-s", sig, "2", SPLRUN, "--nproc-per-node", "2",
                        os.path.join(HERE, "spin.spl"), "60", tag], capture_output=True, text=True, env=clean_env(),
                       timeout=30)
    check(f"timeout -s {sig}: status {status}", p.returncode in status, f"{p.returncode}\n{p.stderr}")
    check(f"timeout -s {sig}: quick", time.monotonic() - t0 < 10)
    none_left(f"timeout -s {sig}", tag)

# all workers succeed after different times: exit 0, every one's output
rc, out, err, _ = run(["--nproc-per-node", "2", os.path.join(HERE, "spin.spl"), "0.2"])
check("success: exit 0 and both outputs", rc == 0 and sorted(out.splitlines()) == ["rank 0 done", "rank 1 done"],
      out + err)

# bad flags: argparse-style errors, status 2, no worker started
bad = [
    (["--nproc-per-node", "0", prog], "argument --nproc-per-node/--nproc_per_node: must be between 1 and 4096, got 0"),
    (["--nproc-per-node", "-2", prog], "argument --nproc-per-node/--nproc_per_node: must be between 1 and 4096, got -2"),
    (["--nproc-per-node", "two", prog], "Unsupported nproc_per_node value: two"),
    (["--nproc-per-node=", prog], "Unsupported nproc_per_node value: "),
    (["--nproc-per-node"], "argument --nproc-per-node/--nproc_per_node: expected one argument"),
    (["--nproc-per-node", "2"], "the launcher needs a program: splrun --nproc-per-node N [launcher flags] [options] "
                                "FILE.spl [ARGS...]"),
    (["--nnodes", "x", prog], "argument --nnodes: invalid int value: 'x'"),
    (["--nnodes", "0", prog], "min_nodes must be > 0 and <= max_nodes, got min_nodes=0, max_nodes=0"),
    (["--nnodes", "3:2", prog], "min_nodes must be > 0 and <= max_nodes, got min_nodes=3, max_nodes=2"),
    (["--nnodes", "1:2:3", prog], 'nnodes=1:2:3 is not in "MIN:MAX" format'),
    (["--nnodes", "1:2", prog], "--nnodes 1:2: an elastic node range needs a rendezvous backend; splrun's launcher "
                                "is static: give a fixed node count"),
    (["--nnodes", "2", "--node-rank", "2", prog], "argument --node-rank/--node_rank: must be in [0, 2) for --nnodes 2, "
                                                  "got 2"),
    (["--node_rank", "-1", prog], "argument --node-rank/--node_rank: must be in [0, 1) for --nnodes 1, got -1"),
    (["--node-rank", "1.5", prog], "argument --node-rank/--node_rank: invalid int value: '1.5'"),
    (["--master-port", "70000", prog], "argument --master-port/--master_port: port must be in 1..65535, got 70000"),
    (["--master_port=http", prog], "argument --master-port/--master_port: invalid int value: 'http'"),
    (["--master-addr=", prog], "argument --master-addr/--master_addr: empty address"),
]
for args, message in bad:
    rc, out, err, _ = run(args)
    check(f"bad flags {args[:-1] if args[-1] == prog else args}", rc == 2 and err == f"splrun: error: {message}\n"
          and out == "", f"rc {rc}\nstdout {out!r}\nstderr {err!r}")
# a MIN:MAX range with MIN == MAX is a fixed count
rc, out, err, _ = run(["--nnodes=1:1", prog])
check("--nnodes 1:1 accepted", rc == 0 and len(parse_workers(out)) == 1, out + err)

# env(name): text, nil when unset; a non-text name is an error
rc, out, err, _ = run([os.path.join(HERE, "env.spl")], env=clean_env(SPL_LAUNCHER_PROBE="a b"))
check("env(): values", out == "a b nil default\n", out)
check("env(): bad name", rc == 1 and "error: env() takes a variable name (text), got i64" in err, err)

print(f"{PASSED} passed, {len(FAILED)} failed")
sys.exit(1 if FAILED else 0)
