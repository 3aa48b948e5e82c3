#!/usr/bin/env python3
"""Writes tests/spl/toplevel_fixtures.spl: torch's top-level names (dtypes, constants, finfo,
iinfo, tensor/as_tensor/asarray, unravel_index, the process settings, set_printoptions) and the
Python-level Tensor attributes (is_*, layout, stride, type, unique, lu, apply_/map_/map2_) on the
pin, for toplevel_spec.spl.
Run: .venv/bin/python tests/spl/make_toplevel_fixtures.py"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402  (the one writer of Simple fixture files)


def name(d):
    return str(d).removeprefix("torch.")


def main():
    warnings.simplefilter("ignore")
    v = {}
    dtypes = sorted(n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype))
    v["dtype_attrs"] = dtypes
    v["dtype_values"] = [name(getattr(torch, n)) for n in dtypes]
    v["e_pi"] = [torch.e, torch.pi]
    v["newaxis_shape"] = list(torch.zeros(2, 2)[:, torch.newaxis].shape)
    floats = ["float32", "float64", "float16", "bfloat16", "float8_e5m2", "float8_e4m3fn", "complex64", "complex32"]
    v["finfo_types"] = floats
    v["finfo"] = [[float(f.bits), f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution]
                  for f in (torch.finfo(getattr(torch, n)) for n in floats)]
    v["finfo_dtypes"] = [name(torch.finfo(getattr(torch, n)).dtype) for n in floats]
    v["finfo_reprs"] = [repr(torch.finfo(getattr(torch, n))) for n in floats]
    ints = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32"]
    v["iinfo_types"] = ints
    v["iinfo"] = [[torch.iinfo(getattr(torch, n)).bits, torch.iinfo(getattr(torch, n)).min,
                   torch.iinfo(getattr(torch, n)).max] for n in ints]
    v["iinfo_reprs"] = [repr(torch.iinfo(getattr(torch, n))) for n in ints]
    v["finfo_int_error"] = error_text(lambda: torch.finfo(torch.int32))
    v["iinfo_bool_error"] = error_text(lambda: torch.iinfo(torch.bool))
    v["iinfo_float_error"] = error_text(lambda: torch.iinfo(torch.float32))
    # torch.tensor and friends
    v["tensor_repr"] = [repr(torch.tensor([[1.5, 2.0]])), repr(torch.tensor([1, 2], dtype=torch.float32)),
                        repr(torch.tensor([True, False], dtype=torch.int64)), repr(torch.tensor(3))]
    torch.set_default_dtype(torch.float64)
    v["default_float64"] = [name(torch.get_default_dtype()), name(torch.tensor([1.5]).dtype),
                            name(torch.tensor([1, 2]).dtype), name(torch.arange(0.0, 1.0, 0.5).dtype)]
    torch.set_default_dtype(torch.float32)
    v["set_default_int_error"] = error_text(lambda: torch.set_default_dtype(torch.int32))
    x = torch.tensor([1.0, 2.0])
    v["asarray_alias"] = [torch.asarray(x).data_ptr() == x.data_ptr(), torch.asarray(x, copy=True).data_ptr() == x.data_ptr(),
                          name(torch.asarray(x, dtype=torch.float64).dtype), torch.as_tensor(x) is x]
    v["asarray_dtype_error"] = error_text(lambda: torch.asarray(x, dtype=torch.float64, copy=False))
    v["asarray_list_error"] = error_text(lambda: torch.asarray([1, 2], copy=False))
    v["numel"] = torch.numel(torch.zeros(2, 3))
    v["typename"] = [torch.typename(torch.zeros(2, dtype=torch.int64)), torch.typename(torch.zeros(2))]
    v["unravel"] = [flat(t) for t in torch.unravel_index(torch.tensor([4, 1, 5]), (2, 3))]
    v["unravel_int_shape"] = [flat(t) for t in torch.unravel_index(torch.tensor([3]), 4)]
    v["unravel_errors"] = [error_text(lambda: torch.unravel_index(torch.tensor(1.5), (2,))),
                           error_text(lambda: torch.unravel_index(torch.tensor([1]), (2, -1))),
                           error_text(lambda: torch.unravel_index(torch.tensor([1]), (2, 0)))]
    # settings
    modes = []
    torch.use_deterministic_algorithms(True, warn_only=True)
    modes.append([torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(),
                  torch.get_deterministic_debug_mode()])
    torch.set_deterministic_debug_mode("error")
    modes.append([torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(),
                  torch.get_deterministic_debug_mode()])
    torch.set_deterministic_debug_mode(0)
    modes.append([torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(),
                  torch.get_deterministic_debug_mode()])
    v["deterministic_modes"] = modes
    v["debug_mode_errors"] = [error_text(lambda: torch.set_deterministic_debug_mode("loud")),
                              error_text(lambda: torch.set_deterministic_debug_mode(3))]
    precisions = [torch.get_float32_matmul_precision()]
    torch.set_float32_matmul_precision("medium")
    precisions.append(torch.get_float32_matmul_precision())
    torch.set_float32_matmul_precision("bogus")
    precisions.append(torch.get_float32_matmul_precision())
    torch.set_float32_matmul_precision("highest")
    v["matmul_precisions"] = precisions
    v["interop_error"] = error_text(lambda: torch.set_num_interop_threads(0))
    threads = torch.get_num_threads()
    torch.init_num_threads()
    v["threads_kept"] = torch.get_num_threads() == threads
    v["has"] = [torch.has_lapack, torch.has_mkl, torch.has_openmp, torch.has_spectral]
    v["flush_denormal"] = torch.set_flush_denormal(False)
    torch.set_warn_always(True)
    warn_always = [torch.is_warn_always_enabled()]
    torch.set_warn_always(False)
    v["warn_always"] = warn_always + [torch.is_warn_always_enabled()]
    # set_printoptions
    t = torch.tensor([[1.23456, -2.5, 3.0, 4.125], [5.5, 6.0, 7.25, 8.0], [9.0, 10.5, 11.0, 12.75]])
    printed = []
    for opts in [dict(precision=2), dict(threshold=5, edgeitems=1), dict(linewidth=30), dict(profile="short"),
                 dict(profile="full", precision=6)]:
        torch.set_printoptions(**opts)
        printed.append(repr(t))
        torch.set_printoptions(profile="default")
    torch.set_printoptions(profile="short", threshold=5)
    printed.append(repr(torch.arange(10.0) / 3))
    torch.set_printoptions(profile="default")
    for sci in (True, False):
        torch.set_printoptions(sci_mode=sci)
        printed.append(repr(t))
        printed.append(repr(torch.tensor([1e-6, 1.0, 1e6])))
    torch.set_printoptions(precision=2)   # sci_mode left out: back to None
    printed.append(repr(torch.tensor([1e-6, 1.0, 1e6])))
    torch.set_printoptions(profile="default")
    v["printed"] = printed
    # Tensor attributes
    d = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
    s = d.to_sparse()
    kinds = ["cpu", "meta", "sparse", "sparse_csr", "quantized", "nested", "mkldnn", "xpu", "mps", "ipu", "xla",
             "maia", "mtia", "vulkan"]
    v["is_kinds"] = kinds
    v["is_dense"] = [getattr(d, "is_" + k) for k in kinds]
    v["is_sparse_coo"] = [getattr(s, "is_" + k) for k in kinds]
    v["is_csr"] = d.to_sparse_csr().is_sparse_csr
    v["layouts"] = [name(d.layout), name(s.layout), name(d.to_sparse_csr().layout), name(d.to_sparse_coo().layout)]
    a = torch.arange(24.0).reshape(2, 3, 4).transpose(0, 2)
    v["strides"] = [list(a.stride()), a.stride(0), a.stride(-1), a.ndimension(), a.nelement()]
    v["stride_error"] = error_text(lambda: a.stride(3))
    v["sparse_stride"] = list(s.stride())
    v["names"] = [d.name, (d * 2).name]
    sh = torch.arange(6.0).reshape(2, 3)
    view = sh[1]
    before = [sh.is_shared(), view.is_shared(), sh.data_ptr()]
    same = sh.share_memory_() is sh
    v["shared"] = [before[0], before[1], same, sh.is_shared(), view.is_shared(), sh.data_ptr() != before[2],
                   flat(sh), flat(view)]
    v["sparse_data_ptr_error"] = error_text(lambda: s.data_ptr())
    tn = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool", "complex64",
          "complex128", "complex32", "uint16", "uint32", "uint64", "float8_e5m2", "float8_e4m3fnuz", "bits8", "int4"]
    v["type_dtypes"] = tn
    v["type_names"] = [torch.zeros(1, dtype=getattr(torch, n)).type() for n in tn]
    v["type_sparse"] = s.type()
    q = torch.quantize_per_tensor(d, 1.0, 0, torch.quint8)
    v["type_others"] = [q.type(), torch.empty(2, device="meta").type()]
    v["type_csr_error"] = error_text(lambda: d.to_sparse_csr().type())
    v["type_convert"] = [name(d.type(torch.float64).dtype), name(d.type("torch.IntTensor").dtype),
                         name(d.type("torch.Float8_e5m2Tensor").dtype), name(d.type("torch.UInt16Tensor").dtype)]
    v["type_error"] = error_text(lambda: d.type("torch.Bogus"))
    u = torch.tensor([3, 1, 3, 2, 1, 1])
    v["unique"] = flat(u.unique())
    v["unique_all"] = [flat(r) for r in u.unique(return_inverse=True, return_counts=True)]
    v["unique_unsorted_counts"] = [flat(r) for r in u.unique(sorted=False, return_counts=True)]
    m = torch.tensor([[1, 2], [1, 2], [0, 5]])
    v["unique_dim"] = [flat(r) for r in m.unique(dim=0, return_inverse=True)]
    v["unique_consecutive"] = [flat(r) for r in u.unique_consecutive(return_counts=True)]
    ml = torch.zeros(2, requires_grad=True)
    with torch.no_grad():
        copied = ml.module_load(torch.tensor([1.0, 2.0]))
    other = torch.tensor([3.0, 4.0], requires_grad=True)
    assigned = ml.module_load(other, assign=True)
    v["module_load"] = [flat(copied), flat(ml), copied.requires_grad, flat(assigned), assigned.requires_grad]
    v["new_tensor"] = [name(d.new_tensor([1, 2]).dtype), flat(d.new_tensor([1, 2]))]
    g = torch.tensor([[4.0, 3.0], [6.0, 3.0]], dtype=torch.float64)
    v["lu"] = [flat(r) for r in g.lu()]
    v["lu_infos"] = [flat(r) for r in g.lu(get_infos=True)]
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    v["apply"] = flat(w.clone().apply_(lambda z: z * z + 1))
    v["map"] = flat(w.clone().map_(torch.tensor([10.0, 20.0]), lambda p, q: p * q - 1))
    v["map2"] = flat(w.clone().map2_(torch.tensor([1.0, 2.0]), torch.tensor([[3.0], [4.0]]), lambda p, q, r: p + q * r))
    v["apply_int"] = flat(torch.tensor([1, 2, 3]).apply_(lambda z: z * 7))
    e = torch.empty
    v["dim_orders"] = [list(t.dim_order()) for t in [
        e(2, 3, 4, 5).permute(0, 2, 3, 1), e(2, 3, 4, 5).contiguous(memory_format=torch.channels_last), e(2, 1, 3),
        e(3, 4).t(), e(3, 1).expand(3, 4), e(4, 6)[::2, 1:], e(2, 3, 4).transpose(0, 2).transpose(1, 2)]]
    v["dim_order_formats"] = list(e(2, 1, 3).dim_order(ambiguity_check=[torch.contiguous_format]))
    v["dim_order_errors"] = [error_text(lambda: e(2, 1, 3).dim_order(ambiguity_check=True)),
                             error_text(lambda: s.dim_order()),
                             error_text(lambda: e(2, 3).dim_order(ambiguity_check="ILLEGAL"))]
    gx = torch.ones(2, requires_grad=True)
    grad_dtypes = [name(gx.grad_dtype)]
    gx.grad_dtype = torch.float64
    (gx * 2).sum().backward()
    grad_dtypes += [name(gx.grad_dtype), name(gx.grad.dtype), name((gx * 2).grad_dtype)]
    gx.grad_dtype = None
    grad_dtypes.append(gx.grad_dtype)
    v["grad_dtypes"] = grad_dtypes
    v["grad_dtype_error"] = error_text(lambda: setattr(gx * 2, "grad_dtype", torch.float64))
    # the sparse aliases
    dense = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    v["dsmm"] = flat(torch.dsmm(s, dense))
    v["spmm"] = flat(torch.spmm(s, dense))
    v["hsmm"] = flat(torch.hsmm(s, dense).to_dense())
    v["saddmm"] = flat(torch.saddmm(s, s, dense, beta=2, alpha=0.5).to_dense())
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "toplevel_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
