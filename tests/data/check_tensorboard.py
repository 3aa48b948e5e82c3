#!/usr/bin/env python3
"""Event files that lib.torch.utils.tensorboard's SummaryWriter writes, read by TensorBoard's
own readers and compared byte for byte with torch.utils.tensorboard.SummaryWriter's.

A Simple program (written into a temporary folder and run by splrun) logs scalars: several
tags and steps, given wall times, numbers, 0-d and one-element tensors (float64, bfloat16),
bools, a negative and a huge step, zeros (which proto3 leaves out), -0.0, inf and nan,
new_style scalars, add_scalars (one sub-folder per tag), more records than max_queue, a
record after close() (a new event file), purge_step, and a writer never closed (its queue
is written when it dies). Then:
1. tensorboard's EventAccumulator and EventFileLoader read every file: tags, steps, wall
   times and float32 values as logged; the first event of each file is the file version.
2. Python's SummaryWriter logs the same scalars into another folder, with time.time() in
   tensorboard's writer modules answering the wall times the Simple files hold (the first
   event's wall time and purge_step's events are time.time() in PyTorch, not arguments),
   and every event file must equal the Simple one byte for byte: the TFRecord framing, the
   masked CRC-32Cs and the hand-encoded Event protocol buffers.
3. The Simple file names follow events.out.tfevents.<%010d secs>.<host>.<pid>.<n><suffix>.

The folders add_scalars writes to are made here first: Simple cannot make folders.

usage: check_tensorboard.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)

Needs torch and tensorboard: run by a Python without them, it re-runs itself with the
project's .venv Python, or exits 77 (skipped) when there is none.
"""
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_side import REPO, ensure_modules  # noqa: E402

ensure_modules("tensorboard", "torch")

import torch  # noqa: E402
from tensorboard.backend.event_processing import event_accumulator, event_file_loader  # noqa: E402
from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c  # noqa: E402
from tensorboard.summary.writer import event_file_writer  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402
from torch.utils.tensorboard import writer as torch_writer  # noqa: E402

W = 1700000000.0  # wall times are W + something, given to every add_* call

# The same calls in both languages: (Simple line, Python line). `w` writes to run/, `p` (with
# purge_step) to purge/, `u` to unclosed/ and is never closed.
CALLS = [
    ('w.add_scalar("loss/train", 0.75, 0, walltime: W + 0.25)', 'w.add_scalar("loss/train", 0.75, 0, walltime=W + 0.25)'),
    ('w.add_scalar("loss/train", 0.5, 1, walltime: W + 1.5)', 'w.add_scalar("loss/train", 0.5, 1, walltime=W + 1.5)'),
    ('w.add_scalar("loss/train", 0.1, 2, walltime: W + 2.0)', 'w.add_scalar("loss/train", 0.1, 2, walltime=W + 2.0)'),
    ('w.add_scalar("acc", Tensor.tensor(0.875), 1, walltime: W + 2.125)', 'w.add_scalar("acc", torch.tensor(0.875), 1, walltime=W + 2.125)'),
    ('w.add_scalar("acc", Tensor.tensor([[0.1]], dtype: "float64"), 2, walltime: W + 3)',
     'w.add_scalar("acc", torch.tensor([[0.1]], dtype=torch.float64), 2, walltime=W + 3)'),
    ('w.add_scalar("bf16", Tensor.tensor(3.14159, dtype: "bfloat16"), 3, walltime: W + 4)',
     'w.add_scalar("bf16", torch.tensor(3.14159, dtype=torch.bfloat16), 3, walltime=W + 4)'),
    ('w.add_scalar("int", 7, 1099511627776, walltime: 1700000005)', 'w.add_scalar("int", 7, 1099511627776, walltime=1700000005)'),
    ('w.add_scalar("neg", -2.5, -3, walltime: -0.0)', 'w.add_scalar("neg", -2.5, -3, walltime=-0.0)'),
    ('w.add_scalar("zero", 0.0, 0, walltime: 0.0)', 'w.add_scalar("zero", 0.0, 0, walltime=0.0)'),
    ('w.add_scalar("nostep", 0.001, walltime: W + 6.5)', 'w.add_scalar("nostep", 0.001, walltime=W + 6.5)'),
    ('w.add_scalar("huge", 1e300, 4, walltime: W + 7)', 'w.add_scalar("huge", 1e300, 4, walltime=W + 7)'),
    # Simple's 0.0 / 0.0 is x86's negative nan; abs() makes it Python's float("nan").
    ('w.add_scalar("nan", (0.0 / 0.0).abs(), 5, walltime: W + 8)', 'w.add_scalar("nan", float("nan"), 5, walltime=W + 8)'),
    ('w.add_scalar("bool", true, 6, walltime: W + 9)', 'w.add_scalar("bool", True, 6, walltime=W + 9)'),
    ('w.add_scalar("float step", 1.25, 7.9, walltime: W + 10)', 'w.add_scalar("float step", 1.25, 7.9, walltime=W + 10)'),
    ('w.add_scalar("new", 2.5, 3, walltime: W + 11, new_style: true)', 'w.add_scalar("new", 2.5, 3, walltime=W + 11, new_style=True)'),
    ('w.add_scalar("new double", 0.1, 3, walltime: W + 12, new_style: true, double_precision: true)',
     'w.add_scalar("new double", 0.1, 3, walltime=W + 12, new_style=True, double_precision=True)'),
    ('w.add_scalars("loss/both", {"train": 0.3, "val": Tensor.tensor(0.4)}, 5, walltime: W + 13)',
     'w.add_scalars("loss/both", {"train": 0.3, "val": torch.tensor(0.4)}, 5, walltime=W + 13)'),
    ('w.add_scalars("loss/both", {"train": 0.2, "val": 0.35}, 6, walltime: W + 14)',
     'w.add_scalars("loss/both", {"train": 0.2, "val": 0.35}, 6, walltime=W + 14)'),
    ('for i in 0..25: w.add_scalar("many", i * 0.1, i, walltime: W + 100 + i)',
     'for i in range(25): w.add_scalar("many", i * 0.1, i, walltime=W + 100 + i)'),
    ('w.flush()', 'w.flush()'),
    ('w.close()', 'w.close()'),
    ('w.add_scalar("after close", 1.0, 1, walltime: W + 200)', 'w.add_scalar("after close", 1.0, 1, walltime=W + 200)'),
    ('w.close()', 'w.close()'),
    ('p.add_scalar("x", 1.0, 10, walltime: W + 300)', 'p.add_scalar("x", 1.0, 10, walltime=W + 300)'),
    ('p.close()', 'p.close()'),
    ('u.add_scalar("kept", 2.0, 1, walltime: W + 400)', 'u.add_scalar("kept", 2.0, 1, walltime=W + 400)'),
]

# What the reader must find in run/ (tag -> [(step, wall_time, value)]), old-style scalars.
F32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]  # noqa: E731
BF16_PI = float(torch.tensor(3.14159, dtype=torch.bfloat16).to(torch.float16))
EXPECTED_SCALARS = {
    "loss/train": [(0, W + 0.25, F32(0.75)), (1, W + 1.5, F32(0.5)), (2, W + 2.0, F32(0.1))],
    "acc": [(1, W + 2.125, F32(0.875)), (2, W + 3, F32(0.1))],
    "bf16": [(3, W + 4, F32(BF16_PI))],
    "int": [(1099511627776, 1700000005.0, 7.0)],
    "neg": [(-3, -0.0, -2.5)],
    "zero": [(0, 0.0, 0.0)],
    "nostep": [(0, W + 6.5, F32(0.001))],
    "huge": [(4, W + 7, math.inf)],
    "nan": [(5, W + 8, math.nan)],
    "bool": [(6, W + 9, 1.0)],
    "float step": [(7, W + 10, 1.25)],
    "many": [(i, W + 100 + i, F32(i * 0.1)) for i in range(25)],
    "after close": [(1, W + 200, 1.0)],
}
EXPECTED_TENSORS = {"new": [(3, W + 11, 2.5)], "new double": [(3, W + 12, 0.1)]}
EXPECTED_SUB = {"loss_both_train": [(5, W + 13, F32(0.3)), (6, W + 14, F32(0.2))],
                "loss_both_val": [(5, W + 13, F32(0.4)), (6, W + 14, F32(0.35))]}
SUB_FOLDERS = list(EXPECTED_SUB)

NAME = re.compile(r"^events\.out\.tfevents\.(\d{10,})\.([^.]+)\.(\d+)\.(\d+)(.*)$")


def simple_program():
    lines = ["use lib.torch.{Tensor}", "use lib.torch.utils.tensorboard.{SummaryWriter}",
             "val base = args()[0]", f"val W = {W}",
             'var w = SummaryWriter(base + "/run", filename_suffix: ".sfx", max_queue: 3)',
             'val p = SummaryWriter(base + "/purge", purge_step: 10)',
             'val u = SummaryWriter(base + "/unclosed")']
    lines += [s for s, _ in CALLS]
    lines.append('print "logged"')
    return "\n".join(lines) + "\n"


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, name, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
        if not ok:
            self.failed += 1


def same_number(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def records(path):
    """The data of each TFRecord in the file, checking the framing and both masked CRCs."""
    with open(path, "rb") as f:
        raw = f.read()
    out, at = [], 0
    while at < len(raw):
        header = raw[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", raw[at + 8:at + 12])
        data = raw[at + 12:at + 12 + length]
        (data_crc,) = struct.unpack("<I", raw[at + 12 + length:at + 16 + length])
        if header_crc != masked_crc32c(header) or data_crc != masked_crc32c(data) or len(data) != length:
            raise ValueError(f"{path}: bad record at byte {at}")
        out.append(data)
        at += 16 + length
    return out


def check_framing(checks, base):
    """Every Simple file is TFRecords whose masked CRC-32Cs are right (TensorBoard's Python
    reader does not check them; its data server does)."""
    ok = True
    for rel, names in sorted(event_files(base).items()):
        for name in names:
            try:
                n = len(records(os.path.join(base, rel, name)))
                checks.check(f"{rel}/{name}: {n} TFRecords, lengths and masked CRC-32Cs right", True)
            except ValueError as e:
                checks.check(f"{rel}/{name}: TFRecords with right masked CRC-32Cs", False, str(e))
                ok = False
    return ok


def event_files(folder):
    """{relative folder: [file names in creation order]} under folder."""
    found = {}
    for root, _, files in os.walk(folder):
        names = [n for n in files if "tfevents" in n]
        if names:
            rel = os.path.relpath(root, folder)
            found[rel] = sorted(names, key=lambda n: int(NAME.match(n).group(4)))
    return found


def loaded_events(path):
    return list(event_file_loader.LegacyEventFileLoader(path).Load())


def check_reader(checks, base):
    run = os.path.join(base, "run")
    acc = event_accumulator.EventAccumulator(run, size_guidance={event_accumulator.SCALARS: 0, event_accumulator.TENSORS: 0})
    acc.Reload()
    tags = acc.Tags()
    checks.check("EventAccumulator finds every scalar tag", sorted(tags["scalars"]) == sorted(EXPECTED_SCALARS),
                 f"{sorted(tags['scalars'])}")
    for tag, want in EXPECTED_SCALARS.items():
        if tag not in tags["scalars"]:
            continue
        got = [(e.step, e.wall_time, e.value) for e in acc.Scalars(tag)]
        ok = len(got) == len(want) and all(g[0] == w[0] and same_number(g[1], w[1]) and same_number(g[2], w[2])
                                           for g, w in zip(got, want))
        checks.check(f"scalars {tag!r}: steps, wall times, values", ok, f"{got} != {want}")
    for tag, want in EXPECTED_TENSORS.items():
        got = [(e.step, e.wall_time, float(tensor_util.make_ndarray(e.tensor_proto)))
               for e in acc.Tensors(tag)] if tag in tags["tensors"] else []
        checks.check(f"new_style {tag!r}: a tensor summary of the scalars plugin", got == want, f"{got} != {want}")
    for sub, want in EXPECTED_SUB.items():
        a = event_accumulator.EventAccumulator(os.path.join(run, sub))
        a.Reload()
        got = [(e.step, e.wall_time, e.value) for e in a.Scalars("loss/both")] if "loss/both" in a.Tags()["scalars"] else []
        checks.check(f"add_scalars: {sub}/ holds 'loss/both'", got == want, f"{got} != {want}")
    files = event_files(base)
    for rel, names in sorted(files.items()):
        for name in names:
            events = loaded_events(os.path.join(base, rel, name))
            first = events[0] if events else None
            checks.check(f"{rel}/{name}: starts with file_version brain.Event:2 and the writer's name",
                         first is not None and first.file_version == "brain.Event:2"
                         and first.source_metadata.writer == "tensorboard.summary.writer.event_file_writer", str(first))
    purge = loaded_events(os.path.join(base, "purge", files.get("purge", ["?"])[0]))
    checks.check("purge_step: a file_version event and a SessionLog START at step 10, then the scalar",
                 len(purge) == 4 and purge[1].step == 10 and purge[1].file_version == "brain.Event:2"
                 and purge[2].step == 10 and purge[2].session_log.status == 1 and purge[3].step == 10, str(purge))
    kept = loaded_events(os.path.join(base, "unclosed", files.get("unclosed", ["?"])[0]))
    checks.check("a writer never closed: its queued scalar is written when it dies",
                 len(kept) == 2 and kept[1].summary.value[0].tag == "kept" and kept[1].summary.value[0].simple_value == 2.0,
                 str(kept))


class FakeTime:
    """time.time() for tensorboard's writer modules: in the main thread, the wall times the
    Simple files hold; in the writers' background threads (which time their flushes), the
    real clock."""

    def __init__(self, values):
        self.values = list(values)

    def time(self):
        if threading.current_thread() is not threading.main_thread():
            return time.time()
        if not self.values:
            raise AssertionError("time.time() called more often than the Simple writer read its clock")
        return self.values.pop(0)


def write_with_pytorch(base, simple_base, files):
    """Runs CALLS with torch's SummaryWriter into base, time.time() answering the Simple wall times."""
    def first_wall(rel, i):
        return event_file_writer.event_pb2.Event.FromString(
            records(os.path.join(simple_base, rel, files[rel][i]))[0]).wall_time

    purge_walls = [event_file_writer.event_pb2.Event.FromString(r).wall_time
                   for r in records(os.path.join(simple_base, "purge", files["purge"][0]))[:3]]
    # In the order PyTorch reads the clock: each new event file twice (its name, its first
    # event), purge_step's two events once each.
    times = [first_wall("run", 0)] * 2 + purge_walls[:1] * 2 + purge_walls[1:] + [first_wall("unclosed", 0)] * 2
    times += [first_wall(sub, 0) for sub in ("run/loss_both_train", "run/loss_both_val") for _ in range(2)]
    times += [first_wall("run", 1)] * 2
    fake = FakeTime(times)
    saved = (event_file_writer.time, torch_writer.time)
    event_file_writer.time = torch_writer.time = fake
    try:
        env = {"torch": torch, "W": W}
        exec(f"w = SummaryWriter({os.path.join(base, 'run')!r}, filename_suffix='.sfx', max_queue=3)", {**env, "SummaryWriter": torch_writer.SummaryWriter}, env)
        exec(f"p = SummaryWriter({os.path.join(base, 'purge')!r}, purge_step=10)", {**env, "SummaryWriter": torch_writer.SummaryWriter}, env)
        exec(f"u = SummaryWriter({os.path.join(base, 'unclosed')!r})", {**env, "SummaryWriter": torch_writer.SummaryWriter}, env)
        for _, line in CALLS:
            exec(line, env, env)
        env["u"].close()
    finally:
        event_file_writer.time, torch_writer.time = saved
    return fake.values


def check_bytes(checks, simple_base, python_base):
    mine, theirs = event_files(simple_base), event_files(python_base)
    checks.check("the same event files in the same folders", {k: len(v) for k, v in mine.items()}
                 == {k: len(v) for k, v in theirs.items()}, f"{mine} != {theirs}")
    for rel in sorted(mine):
        for i, (a, b) in enumerate(zip(mine[rel], theirs.get(rel, []))):
            ra, rb = records(os.path.join(simple_base, rel, a)), records(os.path.join(python_base, rel, b))
            with open(os.path.join(simple_base, rel, a), "rb") as x, open(os.path.join(python_base, rel, b), "rb") as y:
                same = x.read() == y.read()
            first_diff = next((j for j, (p, q) in enumerate(zip(ra, rb)) if p != q), None)
            checks.check(f"{rel}/ file {i}: {len(ra)} records, byte for byte PyTorch's", same,
                         f"{len(ra)} vs {len(rb)} records; first different record {first_diff}: "
                         f"{ra[first_diff] if first_diff is not None else ''!r} != {rb[first_diff] if first_diff is not None else ''!r}")
            ma, mb = NAME.match(a), NAME.match(b)
            checks.check(f"{rel}/ file {i}: named events.out.tfevents.<secs>.<host>.<pid>.<n><suffix>",
                         # the same seconds, host, file number and suffix; the process ids differ
                         ma is not None and mb is not None and ma.group(1) == mb.group(1) and ma.group(2) == mb.group(2)
                         and ma.group(4) == mb.group(4) and ma.group(5) == mb.group(5), f"{a} vs PyTorch's {b}")


def main():
    splrun = os.path.abspath(sys.argv[1])
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="spl-tb-") as tmp:
        simple_base, python_base = os.path.join(tmp, "simple"), os.path.join(tmp, "python")
        # no folder is made here: SummaryWriter makes its log_dir and add_scalars' folders, as PyTorch's
        program = os.path.join(tmp, "log.spl")
        with open(program, "w") as f:
            f.write(simple_program())
        done = subprocess.run([splrun, program, simple_base], capture_output=True, text=True, timeout=300)
        checks.check("splrun logs the scalars", done.returncode == 0 and "logged" in done.stdout,
                     f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
        if done.returncode == 0 and check_framing(checks, simple_base):
            check_reader(checks, simple_base)
            left = write_with_pytorch(python_base, simple_base, event_files(simple_base))
            checks.check("PyTorch read the clock as often as the Simple writer", not left, f"{len(left)} times left")
            check_bytes(checks, simple_base, python_base)
    print(f"{checks.failed} failed" if checks.failed else "all passed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
