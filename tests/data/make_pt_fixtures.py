#!/usr/bin/env python3
"""Reference torch.save files for tests/data/pt_spec.spl (lib.torch.load) and
tests/plugin/test_io.cpp (every prefix and byte flip of them), written by Python's
torch.save: a plain dict of every kind of value, an nn.Module's state_dict (an OrderedDict
with `_metadata`), a checkpoint with an Adam state_dict, views sharing a storage,
parameters (torch._utils._rebuild_parameter), protocol 4 (other opcodes), uint16
(_rebuild_tensor_v3); and the files lib.torch.load must refuse: cut, a failed CRC, the
legacy format, a global weights_only refuses (posix.system), one it allows that has no
value here (builtins.set), a zip without data.pkl. Expected values: pt_fixtures.spl.

Deterministic: fixed values and seeds; torch.save's serialization_id is a hash of the
record names and a CRC-32 of their data (PyTorchStreamWriter), so running this again
rewrites the same bytes. The spec compares values, never bytes.

usage: make_pt_fixtures.py [FILES_DIR [FIXTURES_SPL]]     (run with the project's .venv)
"""
import io
import os
import pickle
import sys
import zipfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def expected(t):
    """dtype, shape, values (floats as f64), strides, storage offset and requires_grad."""
    dtype = str(t.dtype).replace("torch.", "")
    values = t.detach()
    if values.dtype in (torch.float16, torch.bfloat16, torch.float32):
        values = values.double()
    if values.dtype == torch.uint16:
        values = values.to(torch.int64)
    return {"dtype": dtype, "shape": list(t.shape), "values": values.tolist(), "stride": list(t.stride()),
            "offset": t.storage_offset(), "requires_grad": t.requires_grad}


def expect_obj(x):
    """The value the spec expects: tensors as expected(t) wrapped in {"tensor": ...},
    tuples as {"tuple": [...]}, so the spec knows what each was."""
    if isinstance(x, torch.Tensor):
        return {"tensor": expected(x)}
    if isinstance(x, tuple):
        return {"tuple": [expect_obj(v) for v in x]}
    if isinstance(x, list):
        return [expect_obj(v) for v in x]
    if isinstance(x, dict):
        return {k: expect_obj(v) for k, v in x.items()}
    return x


class SetReduce:
    def __reduce__(self):
        return (os.system, ("echo never run",))


def main():
    files = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "files")
    fixtures = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "pt_fixtures.spl")
    os.makedirs(files, exist_ok=True)
    path = lambda name: os.path.join(files, name)  # noqa: E731
    ref = {}

    f32 = torch.tensor([[0.5, -1.25, 2.0], [3.75, -4.5, 1024.0]])
    plain = {
        "f32": f32,
        "f16": torch.tensor([0.25, -2.5, 65504.0], dtype=torch.float16),
        "bf16": torch.tensor([[1.5, -3.0], [256.0, 0.125]], dtype=torch.bfloat16),
        "f64": torch.tensor([3.141592653589793, -1e300]),
        "i64": torch.tensor([2**40 + 1, -7, 2**63 - 1]),
        "i32": torch.tensor([-(2**31), 5], dtype=torch.int32),
        "u8": torch.tensor([0, 200, 255], dtype=torch.uint8),
        "mask": torch.tensor([True, False, True]),
        "scalar": torch.tensor(7.5),
        "empty": torch.zeros(0, 3),
        "n": 3, "big": 2**40, "neg": -(2**40), "min": -(2**63), "x": 2.5, "s": "text é {ok}", "none": None,
        "yes": True, "no": False,
        "list": [1, 2.0, "x", None, [True]], "tup": (1, 2), "tup_none": (1, None), "one": (5,), "nine": tuple(range(9)),
        "by_int": {1: "one", 2: "two"}, "nested": {"a": {"b": {"c": [f32[0]]}}},
    }
    plain["f64"] = plain["f64"].double()
    torch.save(plain, path("pt_plain.pt"))
    ref["pt_plain"] = expect_obj(plain)

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))
    model(torch.randn(5, 3)).sum().backward()
    sd = model.state_dict()
    assert hasattr(sd, "_metadata")
    torch.save(sd, path("pt_state_dict.pt"))
    ref["pt_state_dict"] = expect_obj(dict(sd))
    ref["pt_state_dict_keys"] = list(sd.keys())

    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    opt.step()
    checkpoint = {"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict()}
    torch.save(checkpoint, path("pt_checkpoint.pt"))
    ref["pt_checkpoint"] = expect_obj({"epoch": 3, "model": dict(checkpoint["model"]),
                                       "optimizer": checkpoint["optimizer"]})

    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    shared = {"base": base, "t": base.t(), "row": base[1], "stepped": base[:, ::2], "elem": base[2, 3]}
    torch.save(shared, path("pt_shared.pt"))
    ref["pt_shared"] = expect_obj(shared)

    torch.manual_seed(1)
    params = [torch.nn.Parameter(torch.randn(2, 2)), torch.nn.Parameter(torch.ones(3), requires_grad=False)]
    torch.save(params, path("pt_params.pt"))
    ref["pt_params"] = expect_obj(params)

    p4 = {"weight": f32, "names": ["a", "b"], "step": 10, "lr": 0.5}
    torch.save(p4, path("pt_protocol4.pt"), pickle_protocol=4)
    ref["pt_protocol4"] = expect_obj(p4)

    u16 = {"u16": torch.tensor([1, 65535, 300], dtype=torch.uint16)}
    torch.save(u16, path("pt_uint16.pt"))
    ref["pt_uint16"] = expect_obj(u16)

    # --- files to refuse ----------------------------------------------------------------
    small = open(path("pt_shared.pt"), "rb").read()
    with open(path("pt_cut.pt"), "wb") as f:
        f.write(small[: len(small) // 2])
    with open(path("pt_cut_end.pt"), "wb") as f:
        f.write(small[:-10])
    # A flipped byte in storage 0's data (1.0 = base[0][1]): the member's CRC-32 fails.
    at = small.index(bytes.fromhex("0000803f"))
    with open(path("pt_crc.pt"), "wb") as f:
        f.write(small[:at] + bytes([small[at] ^ 0x40]) + small[at + 1:])
    # The legacy format's start (_use_new_zipfile_serialization=False pickles this magic number
    # and the protocol version first; the rest holds memory addresses, which change per run).
    with open(path("pt_legacy.pt"), "wb") as f:
        f.write(pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2) + pickle.dumps(1001, protocol=2))
    torch.save({"run": SetReduce()}, path("pt_evil.pt"))
    torch.save({"s": {1, 2}}, path("pt_set.pt"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("archive/version", date_time=(2024, 1, 2, 3, 4, 6)), b"3\n")
    with open(path("pt_no_pickle.pt"), "wb") as f:
        f.write(buf.getvalue())

    write(fixtures, __file__, ref,
          header=f"Expected values of the torch.save files in tests/data/files/pt_*.pt (torch {torch.__version__}).\n"
                 "Tensors are {\"tensor\": {dtype, shape, values, stride, offset, requires_grad}}, tuples\n"
                 '{"tuple": [...]}. ')


if __name__ == "__main__":
    main()
