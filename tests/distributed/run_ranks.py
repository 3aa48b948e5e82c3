"""Runs lib.torch.distributed's multi-process tests on loopback (127.0.0.1 only), after its
one-process spec (store_spec.spl):

- parity: N ranks of collectives.spl (splrun) and N ranks of collectives_ref.py (Python's
  torch.distributed), for N = 2 and 3, each on a free port it picks, with MASTER_ADDR,
  MASTER_PORT, RANK and WORLD_SIZE set; every rank's printed results must be equal.
- one group of two languages: rank 0 Python, rank 1 Simple, printing what two Python ranks do.
- store values: a Simple client of a Python TCPStore (store_server.py, store_client.spl).
- faults (faults.spl): a rank that leaves mid-training, shapes that differ between ranks, a
  TCPStore port in use, init_process_group twice, a collective before init: each must fail,
  in bounded time, with an error naming the problem.

Every run is killed after a deadline (and then fails). Usage: run_ranks.py BUILD_DIR
"""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BUILD = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "build"
PYTHON = ROOT / ".venv" / "bin" / "python"
failures = []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def simple_command(program):
    return [str(BUILD / "host" / "splrun"), str(HERE / program)]


def run_ranks(command, n, deadline, extra_env=None, port=None):
    """Starts n ranks of `command` (or of command(rank) when it is a function); returns
    [(returncode, stdout, stderr)], or None when the deadline passed (every rank is killed then)."""
    port = port or free_port()
    procs = []
    for rank in range(n):
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                   WORLD_SIZE=str(n), GLOO_SOCKET_IFNAME="lo",
                   SIMPLE_SFFI_PATH=str(BUILD / "runtime_plugin"),
                   SIMPLE_LIB=os.environ.get("SIMPLE_LIB") or str(ROOT / "spl_stubs" / "lib"),
                   **(extra_env or {}))
        procs.append(subprocess.Popen(command(rank) if callable(command) else command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, cwd=ROOT))
    end = time.monotonic() + deadline
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=max(0.1, end - time.monotonic()))
            results.append((p.returncode, out, err))
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            for q in procs:
                q.communicate()
            return None
    return results


def parse(out):
    lines = {}
    for line in out.splitlines():
        name, _, values = line.partition(":")
        if name.endswith("Warning"):  # lib.torch prints warnings on stdout (store_spec.spl checks their text)
            continue
        text = name == "done" or name.startswith("objects ") or (name.startswith("held ") and not name.endswith(" values"))
        lines[name] = values.strip() if text else [float(v) for v in values.split()]
    return lines


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)


PYTHON_RANK = [str(PYTHON), str(HERE / "collectives_ref.py")]


def compare(label, simple, python):
    """Each rank's printed results of `simple` (a run whose ranks may be Simple or Python)
    against the all-Python run's."""
    check(simple is not None, f"{label}: the ranks end within 120 s")
    check(python is not None, f"{label}: the Python ranks end within 120 s")
    if simple is None or python is None:
        return
    for rank in range(len(python)):
        (src, sout, serr), (prc, pout, perr) = simple[rank], python[rank]
        check(src == 0, f"{label}: rank {rank} exits 0" + (f" ({serr.strip()[-400:]})" if src else ""))
        check(prc == 0, f"{label}: Python rank {rank} exits 0" + (f" ({perr.strip()[-400:]})" if prc else ""))
        s, p = parse(sout), parse(pout)
        check(len(p) >= 15, f"{label}: rank {rank} printed {len(p)} results")
        for name in p:
            check(s.get(name) == p[name], f"{label}, rank {rank}: {name}" +
                  ("" if s.get(name) == p[name] else f": got {s.get(name)} Python {p[name]}"))
        extra = sorted(set(s) - set(p))
        check(not extra, f"{label}, rank {rank}: no result Python lacks {extra}")


def parity(n):
    simple = run_ranks(simple_command("collectives.spl"), n, 120)
    python = run_ranks(PYTHON_RANK, n, 120)
    compare(f"{n} Simple ranks", simple, python)


def mixed():
    """One group of two languages: rank 0 Python's torch.distributed, rank 1 lib.torch's
    (same store keys, same Gloo), each printing what the all-Python run prints. Groups made
    by new_group are left out: Python 2.15 makes them through ProcessGroup.new_group."""
    env = {"MIXED": "1"}
    both = run_ranks(lambda rank: PYTHON_RANK if rank == 0 else simple_command("collectives.spl"), 2, 120, env)
    python = run_ranks(PYTHON_RANK, 2, 120, env)
    compare("Python rank 0 + Simple rank 1", both, python)


def launchers():
    """launched.spl under splrun's launcher and under Python's torchrun (--no-python): every
    rank joins the group from the environment the launcher sets."""
    env = dict(os.environ, SIMPLE_SFFI_PATH=str(BUILD / "runtime_plugin"),
               SIMPLE_LIB=os.environ.get("SIMPLE_LIB", str(ROOT / "spl_stubs" / "lib")), GLOO_SOCKET_IFNAME="lo")
    splrun = str(BUILD / "host" / "splrun")
    program = str(HERE / "launched.spl")
    want = ["rank 0 of 2: [3.0, 3.0]", "rank 1 of 2: [3.0, 3.0]"]
    for label, command in [("splrun --nproc-per-node 2", [splrun, "--nproc-per-node", "2", "--master-port", str(free_port()), program]),
                           ("torchrun --no-python splrun", [str(ROOT / ".venv" / "bin" / "torchrun"), "--nproc-per-node", "2",
                                                             "--master-port", str(free_port()), "--no-python", splrun, program])]:
        try:
            r = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
        except subprocess.TimeoutExpired:
            check(False, f"{label}: ends within 120 s")
            continue
        got = sorted(line for line in r.stdout.splitlines() if line.startswith("rank "))
        check(r.returncode == 0 and got == want, f"{label}: both ranks joined and reduced" +
              ("" if got == want else f": got {got}, exit {r.returncode}: {r.stderr[-400:]}"))


def fault(name, n, expect, deadline=60, port=None):
    """Runs faults.spl with FAULT=name; every rank that should fail must, naming `expect`."""
    start = time.monotonic()
    results = run_ranks(simple_command("faults.spl"), n, deadline, {"FAULT": name}, port=port)
    took = time.monotonic() - start
    check(results is not None, f"fault {name}: ends within {deadline} s")
    if results is None:
        return []
    for rank, (rc, out, err) in enumerate(results):
        if expect.get(rank) is None:
            continue
        # an expectation is a text, or a tuple of texts any one of which will do
        wanted = expect[rank] if isinstance(expect[rank], tuple) else (expect[rank],)
        named = rc != 0 and any(w in err for w in wanted)
        check(named, f"fault {name}: rank {rank} fails naming {' or '.join(map(repr, wanted))} ({took:.1f} s)" +
              ("" if named else f": rc {rc}, stderr {err.strip()[-600:]!r}"))
    return results


def store_values():
    """A Python TCPStore master (store_server.py) and a Simple client (store_client.spl): text
    values cross both ways, a binary value is refused with an error naming its key."""
    port = free_port()
    server = subprocess.Popen([str(PYTHON), str(HERE / "store_server.py"), str(port)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        ready = server.stdout.readline().strip() == "ready"
        check(ready, "store values: Python's TCPStore serves")
        results = run_ranks(simple_command("store_client.spl"), 1, 60, port=port) if ready else None
    finally:
        try:
            out, err = server.communicate(input="", timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            out, err = server.communicate()
    check(results is not None, "store values: the Simple client ends within 60 s")
    if results is None:
        return
    rc, sout, serr = results[0]
    check("text: café 3" in sout, f"store values: Python's text reaches Simple ({sout.strip()!r})")
    check(rc != 0 and "the value of key 'binary' is 5 bytes that are not UTF-8 text" in serr,
          f"store values: a binary value is refused naming its key (rc {rc}, {serr.strip()[-300:]!r})")
    check("from simple: b'h\\xc3\\xa9llo'" in out,
          f"store values: Simple's text reaches Python as its UTF-8 bytes ({out.strip()!r}, {err.strip()[-300:]!r})")


def faults():
    fault("before_init", 1, {0: "Default process group has not been initialized, please make sure to call "
                                "init_process_group."})
    fault("twice", 1, {0: "trying to initialize the default process group twice!"})
    # shapes that differ: as with Python's torch.distributed, rank 0's smaller all_reduce
    # completes and rank 1's fails with Gloo's transport error (pair.cc), never hangs
    fault("shapes", 2, {1: "pair.cc"})
    # rank 1 never reaches the monitored barrier: rank 0's error names it after 2 s
    fault("monitored", 2, {0: "Rank 1 failed to pass monitoredBarrier"}, deadline=45)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        fault("port", 1, {0: "address already in use"}, port=port)
    # rank 1 leaves after one step: rank 0's next all_reduce fails within the 10 s timeout
    start = time.monotonic()
    results = fault("exit", 2, {0: "Connection"}, deadline=45)
    if results:
        check(results[1][0] != 0 or "unexpectedly done" in results[1][1], "fault exit: rank 1 ran to its end")
        check(time.monotonic() - start < 40, "fault exit: the other rank failed within the timeout")
    # ranks waiting on each other (none gone): each fails after the group's 10 s timeout; the
    # rank whose timeout fires second may instead see the first one's connection close
    start = time.monotonic()
    results = fault("stall", 2, {0: ("Timed out", "Connection closed"), 1: ("Timed out", "Connection closed")}, deadline=45)
    check(any("Timed out" in err for _, _, err in results), "fault stall: a rank timed out")
    check(time.monotonic() - start < 30, "fault stall: the ranks failed within about the timeout")
    # the same stall after set_timeout(1.0): the new timeout, not the group's 10 s, ends it
    start = time.monotonic()
    results = fault("set_timeout", 2, {0: ("Timed out", "Connection closed"), 1: ("Timed out", "Connection closed")}, deadline=45)
    check(any("Timed out" in err for _, _, err in results), "fault set_timeout: a rank timed out")
    took = time.monotonic() - start
    check(took < 9, f"fault set_timeout: the ranks failed before the group's own 10 s timeout ({took:.1f} s)")


def main():
    if not (BUILD / "host" / "splrun").exists():
        print("skipped: no splrun in", BUILD)
        return 77
    probe = run_ranks(simple_command("gloo_available.spl"), 1, 60)
    if probe is not None and probe[0][1].strip() == "false":
        print("skipped: this plugin has no Gloo backend")
        return 77
    spec = run_ranks([str(BUILD / "host" / "splrun"), "test", str(HERE / "store_spec.spl")], 1, 120)
    check(spec is not None and spec[0][0] == 0,
          "store_spec.spl passes" + ("" if spec is not None and spec[0][0] == 0 else f": {spec and spec[0][1][-1500:]}"))
    for n in (2, 3):
        parity(n)
    mixed()
    store_values()
    launchers()
    faults()
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
