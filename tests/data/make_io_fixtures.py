#!/usr/bin/env python3
"""Reference files for tests/data/io_spec.spl (lib.torch.serialization and
lib.torch.data.readers) and tests/plugin/test_io.cpp, written by the reference
implementations: safetensors' `save_file`, numpy's `np.save`, `np.savez`,
`np.savez_compressed`, Python's csv text and gzip, and IDX files as MNIST ships them
(big-endian, written here with struct). Also the broken variants the readers must refuse
(truncated, flipped bytes, wrong values in a header, files of another format).

Deterministic: fixed values, gzip and zip timestamps pinned, so running it again rewrites
the same bytes (the deflate streams depend on the zlib that Python links). Each file is a
few hundred bytes; they are committed under tests/data/files/ with the expected values as
Simple literals in tests/data/io_fixtures.spl, so the spec runs from a clean checkout
without Python.

usage: make_io_fixtures.py [FILES_DIR [FIXTURES_SPL]]     (run with the project's .venv)
"""
import gzip
import io
import json
import math
import os
import struct
import sys
import time
import zipfile
from unittest import mock

import numpy as np
import safetensors
import torch
from safetensors.torch import save_file
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def expected(t):
    """What the spec compares: dtype name, shape, values as Tensor.to_list gives them
    (complex tensors: view_as_real's values)."""
    t = torch.as_tensor(t)
    dtype = str(t.dtype).replace("torch.", "")
    values = torch.view_as_real(t) if t.is_complex() else t
    if values.dtype in (torch.float16, torch.bfloat16, torch.float32):
        values = values.double()
    return {"dtype": dtype, "shape": list(t.shape), "values": values.tolist()}


def from_numpy(a):
    a = np.array(a, order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return expected(torch.from_numpy(a.copy()))


class Writer:
    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def bytes(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return data

    def safetensors_order(self, name):
        """The tensors' names by data offset: the file's order, which load_file keeps."""
        data = self.read(name)
        header = json.loads(data[8 : 8 + struct.unpack("<Q", data[:8])[0]])
        return sorted((k for k in header if k != "__metadata__"), key=lambda k: header[k]["data_offsets"][0])

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()


def gzip_bytes(data):
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as g:
        g.write(data)
    return out.getvalue()


class FixedTime:
    """zipfile stamps each member with time.localtime(time.time()): pinned here."""

    @staticmethod
    def time():
        return 0.0

    @staticmethod
    def localtime(_=None):
        return time.struct_time((2024, 1, 2, 3, 4, 6, 1, 2, 0))


def raw_safetensors(header, data):
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def idx_bytes(type_code, fmt, shape, values):
    head = bytes([0, 0, type_code, len(shape)]) + b"".join(struct.pack(">I", s) for s in shape)
    return head + b"".join(struct.pack(">" + fmt, v) for v in values)


def main():
    files_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "files")
    fixtures = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "io_fixtures.spl")
    w = Writer(files_dir)
    ref = {}

    # --- safetensors -------------------------------------------------------------------
    mixed = {
        "weight": torch.tensor([[0.5, -1.25, 2.0], [3.75, -4.5, 1024.0]], dtype=torch.float32),
        "half": torch.tensor([0.25, -2.5, 65504.0, 0.0], dtype=torch.float16),
        "brain": torch.tensor([[1.5, -3.0], [256.0, 0.125]], dtype=torch.bfloat16),
        "double": torch.tensor([math.pi, -1e300, 5e-324], dtype=torch.float64),
        "ids": torch.tensor([2**40 + 1, -7, 2**62], dtype=torch.int64),
        "i32": torch.tensor([-(2**31), 2**31 - 1], dtype=torch.int32),
        "i16": torch.tensor([-300, 12345], dtype=torch.int16),
        "i8": torch.tensor([-128, 0, 127], dtype=torch.int8),
        "u8": torch.tensor([0, 128, 255], dtype=torch.uint8),
        "mask": torch.tensor([True, False, False, True, True]),
        "scalar": torch.tensor(7.5, dtype=torch.float32),
        "empty": torch.zeros(0, 3, dtype=torch.float32),
        "cplx": torch.tensor([1 + 2j, -0.5 - 4j], dtype=torch.complex64),
    }
    # One key: safetensors writes __metadata__ from a hash map, in an order that changes from
    # run to run (several keys are checked in check_python_reads.py, in the other direction).
    metadata = {"format": "pt {fixture}"}
    save_file(mixed, w.path("st_mixed.safetensors"), metadata=metadata)
    ref["st_mixed_order"] = w.safetensors_order("st_mixed.safetensors")
    ref["st_mixed"] = {k: expected(mixed[k]) for k in ref["st_mixed_order"]}
    ref["st_mixed_metadata"] = metadata

    small = {"a": torch.tensor([[1.0, 2.0], [3.0, 4.0]]), "b": torch.tensor([10, 20, 30])}
    save_file(small, w.path("st_small.safetensors"))
    # (save_file orders the tensors by alignment, then name: b, the int64, comes first.)
    ref["st_small"] = {k: expected(small[k]) for k in w.safetensors_order("st_small.safetensors")}
    good = w.read("st_small.safetensors")
    n = struct.unpack("<Q", good[:8])[0]
    # Broken variants of st_small.
    w.bytes("st_cut_4.safetensors", good[:4])
    w.bytes("st_cut_header.safetensors", good[: 8 + n // 2])
    w.bytes("st_cut_data.safetensors", good[:-5])
    w.bytes("st_huge_length.safetensors", struct.pack("<Q", 2**62) + good[8:])
    w.bytes("st_long_length.safetensors", struct.pack("<Q", len(good)) + good[8:])
    w.bytes("st_not_json.safetensors", good[:8] + b"x" + good[9:])
    w.bytes("st_bad_dtype.safetensors", good.replace(b'"F32"', b'"F99"'))
    w.bytes("st_not_object.safetensors", raw_safetensors([1, 2, 3], b""))
    w.bytes("st_offsets_outside.safetensors",
            raw_safetensors({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 160]}}, b"\0" * 16))
    w.bytes("st_shape_mismatch.safetensors",
            raw_safetensors({"a": {"dtype": "F32", "shape": [3, 3], "data_offsets": [0, 16]}}, b"\0" * 16))
    w.bytes("st_negative_shape.safetensors",
            raw_safetensors({"a": {"dtype": "F32", "shape": [-1, 4], "data_offsets": [0, 16]}}, b"\0" * 16))
    w.bytes("st_bad_metadata.safetensors",
            raw_safetensors({"__metadata__": {"n": 1}, "a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}},
                            b"\1"))
    # A bool byte that is neither 0 nor 1 (the reader compares with 0).
    w.bytes("st_bool_bytes.safetensors",
            raw_safetensors({"m": {"dtype": "BOOL", "shape": [3], "data_offsets": [0, 3]}}, b"\0\2\1"))
    ref["st_bool_bytes"] = [False, True, True]

    # --- .npy -------------------------------------------------------------------------
    npy = {
        "npy_f32": np.array([[0.5, -1.5, 2.25], [1e-3, 3e4, -0.0]], dtype="<f4"),
        "npy_f64_be": np.array([math.e, -2.5, 1e100], dtype=">f8"),
        "npy_i64": np.array([2**40 + 3, -9, 0, 2**63 - 1], dtype="<i8"),
        "npy_i32_be": np.array([[1, -2], [65536, -(2**31)]], dtype=">i4"),
        "npy_bool": np.array([[True, False], [False, True]]),
        "npy_u8": np.arange(0, 250, 50, dtype=np.uint8),
        "npy_i16": np.array([-32768, 32767, 5], dtype="<i2"),
        "npy_f16": np.array([0.5, -1024.0, 3.0], dtype="<f2"),
        "npy_c128": np.array([1 - 1j, 2.5 + 0.5j], dtype="<c16"),
        "npy_fortran": np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3) * 10),
        "npy_fortran3": np.asfortranarray(np.arange(24, dtype="<f8").reshape(2, 3, 4)),
        "npy_scalar": np.array(-42.5),
        "npy_empty": np.zeros((0, 2), dtype="<f4"),
    }
    ref["npy"] = {}
    for name, a in npy.items():
        np.save(w.path(name + ".npy"), a)
        ref["npy"][name] = from_numpy(a)
    assert b"'fortran_order': True" in w.read("npy_fortran.npy")
    with open(w.path("npy_v2.npy"), "wb") as f:
        np.lib.format.write_array(f, np.array([[1, 2, 3]], dtype="<i8"), version=(2, 0))
    ref["npy"]["npy_v2"] = expected(torch.tensor([[1, 2, 3]]))
    np.save(w.path("npy_object.npy"), np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    np.save(w.path("npy_str.npy"), np.array(["ab", "cde"]))
    np.save(w.path("npy_struct.npy"), np.zeros(2, dtype=[("x", "<f4"), ("y", "<i4")]))
    np.save(w.path("npy_f128.npy"), np.zeros(2, dtype=np.longdouble))
    f32 = w.read("npy_f32.npy")
    w.bytes("npy_cut_data.npy", f32[:-3])
    w.bytes("npy_cut_header.npy", f32[:40])
    w.bytes("npy_trailing.npy", f32 + b"\0\0\0\0")
    w.bytes("npy_bad_magic.npy", b"\x93NUMPZ" + f32[6:])
    w.bytes("npy_bad_version.npy", f32[:6] + b"\x07\x00" + f32[8:])
    w.bytes("npy_bad_header.npy", f32.replace(b"'shape': (2, 3)", b"'shape': [2, 3]"))
    # np.save's exact bytes for a tensor the spec also builds (save_npy must match them).
    np.save(w.path("npy_expected_save.npy"), np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="<f4").T.copy())

    # --- .npz -------------------------------------------------------------------------
    with mock.patch.object(zipfile, "time", FixedTime):
        np.savez(w.path("npz_stored.npz"), x=np.array([[1.5, 2.5], [3.5, 4.5]], dtype="<f4"),
                 y=np.array([7, 8, 9], dtype="<i8"))
        np.savez_compressed(w.path("npz_deflated.npz"), a=np.linspace(0, 1, 5), b=np.eye(2, dtype=bool),
                            c=np.array([3, 2, 1], dtype=np.uint8), positional=np.zeros(64, dtype="<f4"))
    ref["npz_stored"] = {"x": from_numpy(np.array([[1.5, 2.5], [3.5, 4.5]], dtype="<f4")),
                         "y": from_numpy(np.array([7, 8, 9], dtype="<i8"))}
    ref["npz_deflated"] = {"a": from_numpy(np.linspace(0, 1, 5)), "b": from_numpy(np.eye(2, dtype=bool)),
                           "c": from_numpy(np.array([3, 2, 1], dtype=np.uint8)),
                           "positional": from_numpy(np.zeros(64, dtype="<f4"))}
    with zipfile.ZipFile(w.path("npz_deflated.npz")) as z:
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
    stored = w.read("npz_stored.npz")
    w.bytes("npz_cut.npz", stored[: len(stored) // 2])
    w.bytes("npz_cut_end.npz", stored[:-10])
    # A flipped byte in the stored member x.npy's data (its last float): the CRC-32 catches it.
    at = stored.index(struct.pack("<f", 4.5))
    w.bytes("npz_crc.npz", stored[:at] + bytes([stored[at] ^ 0x40]) + stored[at + 1 :])
    deflated = w.read("npz_deflated.npz")
    with zipfile.ZipFile(io.BytesIO(deflated)) as z:
        info = z.getinfo("a.npy")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    local_extra = struct.unpack("<H", deflated[info.header_offset + 28 : info.header_offset + 30])[0]
    start = info.header_offset + 30 + len(info.filename) + local_extra
    mid = start + info.compress_size // 2
    w.bytes("npz_bad_deflate.npz", deflated[:mid] + bytes([deflated[mid] ^ 0xFF]) + deflated[mid + 1 :])
    with mock.patch.object(zipfile, "time", FixedTime):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr(zipfile.ZipInfo("notes.txt", date_time=(2024, 1, 2, 3, 4, 6)), b"not an array")
        w.bytes("npz_not_npy.npz", buf.getvalue())

    # --- CSV --------------------------------------------------------------------------
    csv_text = "a,b,c\n1.5, -2,3e2\n+4,5.25,\"6\"\n\n-7.5,8,-9e-1\n"
    w.bytes("data.csv", csv_text.encode())
    ref["csv"] = expected(torch.tensor([[1.5, -2, 300], [4, 5.25, 6], [-7.5, 8, -0.9]], dtype=torch.float32))
    ref["csv_f64"] = expected(torch.tensor([[1.5, -2, 300], [4, 5.25, 6], [-7.5, 8, -0.9]], dtype=torch.float64))
    gz_text = "# two header lines\r\nx;y\r\n10;-20\r\n30;40\r\n2147483648;-1\r\n"
    w.bytes("data.csv.gz", gzip_bytes(gz_text.encode()))
    ref["csv_gz"] = expected(torch.tensor([[10, -20], [30, 40], [2147483648, -1]], dtype=torch.int64))
    w.bytes("data_space.txt", b"1 2  3\n\t4 5 6 \n")
    ref["csv_space"] = expected(torch.tensor([[1.0, 2, 3], [4, 5, 6]]))
    w.bytes("bad_fields.csv", b"1,2,3\n4,5,6\n7,8\n")
    w.bytes("bad_value.csv", b"x,y\n1,2\n3,abc\n")
    w.bytes("bad_empty.csv", b"1,,3\n")
    w.bytes("bad_range.csv", b"1,300\n")
    gz = w.read("data.csv.gz")
    w.bytes("bad_cut.csv.gz", gz[: len(gz) - 12])
    w.bytes("bad_crc.csv.gz", gz[:-8] + bytes([gz[-8] ^ 1]) + gz[-7:])
    w.bytes("empty.csv", b"h1,h2\n")

    # --- IDX --------------------------------------------------------------------------
    pixels = [(i * 37) % 256 for i in range(24)]
    images = idx_bytes(0x08, "B", [2, 3, 4], pixels)
    w.bytes("images-idx3-ubyte", images)
    w.bytes("images-idx3-ubyte.gz", gzip_bytes(images))
    ref["idx_images"] = expected(torch.tensor(pixels, dtype=torch.uint8).reshape(2, 3, 4))
    floats = [0.5, -1.0, 3.25, 1e10, -0.0]
    w.bytes("floats-idx1", idx_bytes(0x0D, "f", [5], floats))
    ref["idx_floats"] = expected(torch.tensor(floats, dtype=torch.float32))
    shorts = [-1, 2, -300, 4000, 5, -32768]
    w.bytes("shorts-idx2", idx_bytes(0x0B, "h", [2, 3], shorts))
    ref["idx_shorts"] = expected(torch.tensor(shorts, dtype=torch.int16).reshape(2, 3))
    ints = [2**31 - 1, -5]
    w.bytes("ints-idx1", idx_bytes(0x0C, "i", [2], ints))
    ref["idx_ints"] = expected(torch.tensor(ints, dtype=torch.int32))
    doubles = [math.pi, -1e-300]
    w.bytes("doubles-idx1", idx_bytes(0x0E, "d", [2], doubles))
    ref["idx_doubles"] = expected(torch.tensor(doubles, dtype=torch.float64))
    w.bytes("idx_cut", images[:-7])
    w.bytes("idx_cut_dims", images[:9])
    w.bytes("idx_bad_type", images[:2] + b"\x07" + images[3:])
    w.bytes("idx_trailing", images + b"\0")
    w.bytes("idx_bad_magic", b"\x01" + images[1:])

    write(fixtures, __file__, {"files": "tests/data/files", **ref},
          header=f"Expected values of the reference files in tests/data/files/ (safetensors {safetensors.__version__}, "
                 f"numpy {np.__version__}, torch {torch.__version__}).\n")


if __name__ == "__main__":
    main()
