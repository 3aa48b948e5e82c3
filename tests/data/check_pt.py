#!/usr/bin/env python3
"""Files that Simple's lib.torch.save writes, read by Python's torch.load(weights_only=True):
values, dtypes, shapes, strides and storage offsets equal (float32, float16, bfloat16,
int64, bool, 0-d, empty, non-contiguous views), views still sharing one storage, a
checkpoint {"epoch", "model": state_dict(), "optimizer": Adam's state_dict()} that loads
into a torch.nn model and optimizer; and the archive's records as torch.save writes them.

Run by check_python_reads.py (the "python reads" test), or alone:
usage: check_pt.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)
"""
import os
import subprocess
import sys
import tempfile
import zipfile

WRITER = """\
use lib.torch.{Tensor, save, manual_seed}
use lib.torch.nn.{Linear, Sequential, ReLU}
use lib.torch.optim.{Adam}

val out = args()[0]
val f32 = Tensor.arange(12, dtype: "float32").reshape([3, 4]) / 4
save({
    "f32": f32,
    "f16": f32.to("float16"),
    "bf16": f32.to("bfloat16"),
    "i64": Tensor.tensor([1099511627777, -3, 9223372036854775807]),
    "mask": f32 > 1.0,
    "transposed": f32.t(),
    "stepped": f32[:, 0:4:2],
    "row": f32[1],
    "scalar": Tensor.tensor(2.5),
    "empty": Tensor.zeros([0, 3]),
    "grad": Tensor.ones([2], requires_grad: true),
    "n": 7, "x": 0.125, "s": "é", "none": nil, "flags": [true, false], "pair": (1, "b"),
    "by_int": {3: "c"}
}, out + "/values.pt")

manual_seed(0)
val model = Sequential([Linear(3, 4), ReLU(), Linear(4, 2)])
val opt = Adam(model.parameters(), lr: 0.01)
model(Tensor.ones([5, 3])).sum().backward()
opt.step()
save({"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict()}, out + "/checkpoint.pt")
print "written"
"""


def check_pt_files(checks, splrun, tmp):
    """Runs the writer in splrun, then reads its files with torch.load(weights_only=True)."""
    import torch

    program = os.path.join(tmp, "write_pt.spl")
    with open(program, "w") as f:
        f.write(WRITER)
    done = subprocess.run([splrun, program, tmp], capture_output=True, text=True, timeout=300, env=os.environ.copy())
    checks.check("splrun writes the .pt files", done.returncode == 0 and "written" in done.stdout,
                 f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    if done.returncode != 0:
        return
    path = os.path.join(tmp, "values.pt")
    got = torch.load(path, weights_only=True)
    f32 = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4
    want = {
        "f32": f32, "f16": f32.to(torch.float16), "bf16": f32.to(torch.bfloat16),
        "i64": torch.tensor([2**40 + 1, -3, 2**63 - 1]), "mask": f32 > 1.0, "transposed": f32.t(),
        "stepped": f32[:, 0:4:2], "row": f32[1], "scalar": torch.tensor(2.5), "empty": torch.zeros(0, 3),
        "grad": torch.ones(2, requires_grad=True),
    }
    for name, t in want.items():
        g = got.get(name)
        ok = (isinstance(g, torch.Tensor) and g.dtype == t.dtype and g.shape == t.shape and torch.equal(g, t)
              and g.stride() == t.stride() and g.storage_offset() == t.storage_offset()
              and g.requires_grad == t.requires_grad)
        checks.check(f"torch.load(weights_only=True) {name} ({t.dtype})", ok,
                     f"got {g!r} stride {getattr(g, 'stride', lambda: None)()}, want {t!r} stride {t.stride()}")
    views = ["f32", "transposed", "stepped", "row"]
    ptrs = {got[n].untyped_storage().data_ptr() for n in views}
    checks.check("views of one tensor share one storage in Python", len(ptrs) == 1, str(ptrs))
    plain = {k: got[k] for k in ["n", "x", "s", "none", "flags", "pair", "by_int"]}
    checks.check("plain values", plain == {"n": 7, "x": 0.125, "s": "é", "none": None, "flags": [True, False],
                                           "pair": (1, "b"), "by_int": {3: "c"}}, str(plain))
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        prefix = names[0].split("/")[0]
        records = {n[len(prefix) + 1:] for n in names}
        checks.check("the archive holds torch.save's records",
                     {"data.pkl", "byteorder", "version", ".data/serialization_id", ".format_version",
                      ".storage_alignment"} <= records, str(sorted(records)))
        checks.check("byteorder is little, version 3", z.read(prefix + "/byteorder") == b"little"
                     and z.read(prefix + "/version").strip() == b"3")
        offsets_aligned = all(
            (i.header_offset + 30 + len(i.filename) + int.from_bytes(
                open(path, "rb").read()[i.header_offset + 28:i.header_offset + 30], "little")) % 64 == 0
            for i in z.infolist() if "/data/" in i.filename)
        checks.check("storages are 64-byte aligned", offsets_aligned)

    ckpt = torch.load(os.path.join(tmp, "checkpoint.pt"), weights_only=True)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    try:
        model.load_state_dict(ckpt["model"])
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        opt.load_state_dict(ckpt["optimizer"])
        ok = ckpt["epoch"] == 3 and list(ckpt["model"]) == ["0.weight", "0.bias", "2.weight", "2.bias"]
        ok = ok and opt.state_dict()["param_groups"][0]["betas"] == (0.9, 0.999)
        ok = ok and all(float(s["step"]) == 1.0 for s in opt.state.values())
        checks.check("a Simple checkpoint loads into torch.nn and torch.optim", ok, str(ckpt)[:300])
    except Exception as e:  # noqa: BLE001 (the message is the report)
        checks.check("a Simple checkpoint loads into torch.nn and torch.optim", False, repr(e))


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from check_python_reads import Checks  # re-executes with the .venv when needed

    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="spl-pt-") as tmp:
        check_pt_files(checks, os.path.abspath(sys.argv[1]), tmp)
    print(f"{checks.failed} failed" if checks.failed else "all passed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
