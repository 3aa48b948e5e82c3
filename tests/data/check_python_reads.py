#!/usr/bin/env python3
"""Files that Simple writes (lib.torch.serialization.save_file, lib.torch.data.readers.save_npy),
read back by the reference implementations: safetensors.torch.load_file and safe_open's
metadata, np.load; values, dtypes and shapes compared exactly (float32, float16, bfloat16,
int64, bool, 0-d, empty, non-contiguous tensors), and .npy files compared byte for byte
with np.save's. Then the failures a spec cannot set up, each run in a splrun subprocess:
a full disk (RLIMIT_FSIZE, with SIGXFSZ ignored so that write() fails with EFBIG) must
leave the old file intact and no temporary file behind; a directory that cannot be written
and a file that cannot be read (as root, the child drops to the user nobody; skipped, with
the reason, when nobody cannot run splrun here). Last, check_pt.py: the torch.save files
lib.torch.save writes, read by torch.load(weights_only=True).

usage: check_python_reads.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)

Needs numpy, torch and safetensors: run by a Python without them, it re-runs itself with
the project's .venv Python, or exits 77 (skipped) when there is none.
"""
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_side import REPO, ensure_modules  # noqa: E402

ensure_modules("numpy", "safetensors", "torch")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from safetensors import safe_open  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

WRITER = """\
use lib.torch.{Tensor, save_file, view_as_complex}
use lib.torch.data.readers.{save_npy}

val out = args()[0]
val f32 = Tensor.arange(12, dtype: "float32").reshape([3, 4]) / 4
val tensors = {
    "f32": f32,
    "f16": f32.to("float16"),
    "bf16": f32.to("bfloat16"),
    "i64": Tensor.tensor([1099511627777, -3, 9223372036854775807]),
    "mask": f32 > 1.0,
    "transposed": f32.t(),
    "stepped": f32[:, 0:4:2],
    "scalar": Tensor.tensor(2.5),
    "empty": Tensor.zeros([0, 3]),
    "i32": Tensor.tensor([[-5, 7]], dtype: "int32"),
    "u8": Tensor.tensor([0, 200, 255], dtype: "uint8"),
    "c64": view_as_complex(Tensor.tensor([[1.0, -2.0], [0.5, 4.0]]))
}
save_file(tensors, out + "/simple.safetensors", metadata: {"format": "pt", "a": "1", "note": "\\{text\\}"})
for name in ["f32", "f16", "i64", "mask", "transposed", "stepped", "scalar", "empty", "i32", "u8", "c64"]:
    save_npy(out + "/" + name + ".npy", tensors[name])
print "written"
"""


def expected_tensors():
    f32 = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4
    return {
        "f32": f32,
        "f16": f32.to(torch.float16),
        "bf16": f32.to(torch.bfloat16),
        "i64": torch.tensor([2**40 + 1, -3, 2**63 - 1]),
        "mask": f32 > 1.0,
        "transposed": f32.t(),
        "stepped": f32[:, 0:4:2],
        "scalar": torch.tensor(2.5),
        "empty": torch.zeros(0, 3),
        "i32": torch.tensor([[-5, 7]], dtype=torch.int32),
        "u8": torch.tensor([0, 200, 255], dtype=torch.uint8),
        "c64": torch.view_as_complex(torch.tensor([1.0, -2.0, 0.5, 4.0]).reshape(2, 2)),
    }


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, name, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
        if not ok:
            self.failed += 1

    def same_tensor(self, name, got, want):
        ok = got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape) and torch.equal(got, want)
        self.check(name, ok, f"got {got.dtype} {tuple(got.shape)} {got.tolist()}, want {want.dtype} "
                             f"{tuple(want.shape)} {want.tolist()}")


def run_splrun(splrun, program, args, preexec=None):
    return subprocess.run([splrun, program] + args, capture_output=True, text=True, timeout=300,
                          preexec_fn=preexec, env=os.environ.copy())


def check_written_files(checks, splrun, tmp):
    program = os.path.join(tmp, "write.spl")
    with open(program, "w") as f:
        f.write(WRITER)
    done = run_splrun(splrun, program, [tmp])
    checks.check("splrun writes the files", done.returncode == 0 and "written" in done.stdout,
                 f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    if done.returncode != 0:
        return
    want = expected_tensors()
    path = os.path.join(tmp, "simple.safetensors")
    got = load_file(path)
    checks.check("safetensors.torch.load_file reads every tensor", sorted(got) == sorted(want),
                 f"{sorted(got)} != {sorted(want)}")
    for name, t in want.items():
        if name in got:
            checks.same_tensor(f"safetensors {name} ({t.dtype})", got[name], t.contiguous())
    with safe_open(path, framework="pt") as f:
        meta = f.metadata()
        order = list(f.offset_keys()) if hasattr(f, "offset_keys") else None
    checks.check("safe_open(...).metadata()", meta == {"format": "pt", "a": "1", "note": "{text}"}, str(meta))
    if order is not None:
        checks.check("the tensors lie in the dict's order", order == list(want), str(order))
    for name in ["f32", "f16", "i64", "mask", "transposed", "stepped", "scalar", "empty", "i32", "u8", "c64"]:
        npy = os.path.join(tmp, name + ".npy")
        a = np.load(npy)
        checks.same_tensor(f"np.load {name}", torch.from_numpy(a.copy()), want[name].contiguous())
        reference = os.path.join(tmp, name + ".ref.npy")
        np.save(reference, want[name].contiguous().numpy())
        with open(npy, "rb") as x, open(reference, "rb") as y:
            mine, theirs = x.read(), y.read()
        checks.check(f"{name}.npy is byte for byte np.save's", mine == theirs,
                     f"{mine[:80]!r}... != {theirs[:80]!r}...")


SAVER = """\
use lib.torch.{Tensor, save_file}
use lib.torch.data.readers.{save_npy}
val path = args()[0]
val t = Tensor.ones([1048576])
if path.ends_with(".npy"): save_npy(path, t) else: save_file({"big": t}, path)
print "saved"
"""

LOADER = """\
use lib.torch.{load_file}
print load_file(args()[0]).keys()
"""


def leftovers(directory):
    return [n for n in os.listdir(directory) if ".tmp-" in n]


def check_full_disk(checks, splrun, tmp):
    program = os.path.join(tmp, "save_big.spl")
    with open(program, "w") as f:
        f.write(SAVER)
    disk = os.path.join(tmp, "disk")
    os.mkdir(disk)

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 16, 1 << 16))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    for name in ["old.safetensors", "old.npy"]:
        path = os.path.join(disk, name)
        if name.endswith(".npy"):
            np.save(path, np.arange(5))
        else:
            save_file({"old": torch.arange(5)}, path)
        with open(path, "rb") as f:
            before = f.read()
        done = run_splrun(splrun, program, [path], preexec=limit)
        out = done.stdout + done.stderr
        checks.check(f"{name}: a write past RLIMIT_FSIZE fails", done.returncode != 0 and "saved" not in done.stdout,
                     f"exit {done.returncode}: {out}")
        checks.check(f"{name}: the error names the file and errno's text",
                     f"'{path}'" in out and "File too large" in out, out)
        with open(path, "rb") as f:
            checks.check(f"{name}: the old file is intact", f.read() == before)
        checks.check(f"{name}: no temporary file is left", not leftovers(disk), str(leftovers(disk)))


def drop_to_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def check_permissions(checks, splrun, tmp):
    locked = os.path.join(tmp, "locked")
    os.mkdir(locked)
    keep = os.path.join(locked, "keep.safetensors")
    save_file({"keep": torch.arange(3)}, keep)
    secret = os.path.join(tmp, "secret.safetensors")
    save_file({"secret": torch.arange(3)}, secret)
    saver = os.path.join(tmp, "save_big.spl")
    loader = os.path.join(tmp, "load.spl")
    with open(loader, "w") as f:
        f.write(LOADER)
    if os.geteuid() == 0:
        # Root writes anywhere: the child runs as nobody, for whom root's 0755 directory is
        # read-only and root's 0600 file unreadable.
        os.chmod(tmp, 0o755)
        for p in (saver, loader, keep):
            os.chmod(p, 0o644)
        os.chmod(secret, 0o600)
        preexec = drop_to_nobody
        probe = run_splrun(splrun, loader, [keep], preexec=preexec)
        if probe.returncode != 0 or "keep" not in probe.stdout:
            print("SKIP permission cases: splrun cannot run as the user nobody here (the checkout, the build or "
                  f"LibTorch is not readable by others): {(probe.stdout + probe.stderr).strip()[:300]}")
            return
    else:
        os.chmod(locked, 0o555)
        os.chmod(secret, 0o000)
        preexec = None
    try:
        with open(keep, "rb") as f:
            before = f.read()
        done = run_splrun(splrun, saver, [keep], preexec=preexec)
        out = done.stdout + done.stderr
        checks.check("saving into a directory that cannot be written fails, naming the file",
                     done.returncode != 0 and f"'{keep}'" in out and "Permission denied" in out, out)
        with open(keep, "rb") as f:
            checks.check("the old file in it is intact", f.read() == before)
        done = run_splrun(splrun, loader, [secret], preexec=preexec)
        out = done.stdout + done.stderr
        checks.check("loading a file that cannot be read fails, naming the file",
                     done.returncode != 0 and f"'{secret}': cannot open: Permission denied" in out, out)
    finally:
        os.chmod(locked, 0o755)
        os.chmod(secret, 0o644)


def main():
    splrun = os.path.abspath(sys.argv[1])
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="spl-io-") as tmp:
        check_written_files(checks, splrun, tmp)
        check_full_disk(checks, splrun, tmp)
        check_permissions(checks, splrun, tmp)
        # lib.torch.save's files, read by torch.load(weights_only=True) (check_pt.py)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from check_pt import check_pt_files

        check_pt_files(checks, splrun, tmp)
    print(f"{checks.failed} failed" if checks.failed else "all passed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
