#!/usr/bin/env python3
"""Writes tests/spl/fixtures.spl: reference values computed by Python PyTorch
on the same LibTorch the plugin uses (the project venv's torch), for the
Simple specs to check lib.torch against. Run with the venv's python:

    .venv/bin/python tests/spl/make_fixtures.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.spl")


def flat(t):
    return t.detach().reshape(-1).tolist()


def dtype(t):
    return str(t.dtype).replace("torch.", "")


def raised(fn):
    """The message of the exception `fn()` raises (PyTorch's own text), or None when it works."""
    try:
        fn()
    except Exception as e:  # RuntimeError, TypeError, IndexError...: the text is what matters
        return str(e)
    return None


def error_text(fn):
    """The message of the exception `fn()` must raise."""
    message = raised(fn)
    assert message is not None, "expected an error"
    return message


def conveniences(values):
    """Tensor.size/shape/numel/dim, the dtype and device shorthands, requires_grad,
    and the factories given sizes as separate arguments (issue 10, item 12)."""
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    values["size"] = list(a.size())
    values["size_dim1"] = a.size(1)
    values["size_dim_neg1"] = a.size(-1)
    values["size_dim_neg2"] = a.size(-2)
    values["size_dim_out_of_range"] = error_text(lambda: a.size(2))
    values["shape_attr"] = list(a.shape)
    values["numel"] = a.numel()
    values["dim"] = a.dim()
    values["ndim"] = a.ndim
    mixed = torch.tensor([1.7, -2.2, 0.0, 65504.5, 3.14159])
    for name in ["float", "double", "half", "bfloat16", "long", "int", "bool"]:
        t = getattr(mixed, name)()
        values[f"{name}_dtype"] = dtype(t)
        values[f"{name}_values"] = flat(t.double()) if t.is_floating_point() else flat(t)
    ints = torch.tensor([3, -1])
    values["ints_float_values"] = flat(ints.float())
    values["cpu_device"] = str(a.cpu().device)
    leaf = torch.tensor([1.0, 2.0, 3.0])
    leaf.requires_grad = True
    (leaf * leaf * 3).sum().backward()
    values["grad_after_requires_grad_set"] = flat(leaf.grad)
    values["grad_before_backward_is_none"] = torch.tensor([1.0], requires_grad=True).grad is None
    values["requires_grad_non_leaf"] = error_text(lambda: setattr(leaf * 2, "requires_grad", False))
    torch.manual_seed(0)
    values["randn_3_4_seed0"] = flat(torch.randn(3, 4))
    torch.manual_seed(0)
    values["rand_2_3_seed0"] = flat(torch.rand(2, 3))
    values["zeros_2_3_4_shape"] = list(torch.zeros(2, 3, 4).shape)
    values["ones_2_3_int64"] = flat(torch.ones(2, 3, dtype=torch.int64))
    values["empty_2_3_shape"] = list(torch.empty(2, 3).shape)
    values["full_2_with_3"] = flat(torch.full((2,), 3))
    torch.manual_seed(0)
    values["randint_high_seed0"] = flat(torch.randint(10, (6,)))


SEVEN_D = (1, 2, 1, 3, 1, 2, 2)


def variadic_sizes(values):
    """zeros, ones, empty, rand and randn given any number of separate sizes, torch's
    `*size`: 1, 2 and 7 dimensions, with dtype, requires_grad and generator named after them."""
    values["zeros_1d"] = flat(torch.zeros(4))
    values["ones_2_3"] = flat(torch.ones(2, 3))
    values["zeros_7d_shape"] = list(torch.zeros(*SEVEN_D).shape)
    values["zeros_7d"] = flat(torch.zeros(*SEVEN_D))
    values["ones_7d_int64"] = flat(torch.ones(*SEVEN_D, dtype=torch.int64))
    values["ones_7d_int64_dtype"] = dtype(torch.ones(*SEVEN_D, dtype=torch.int64))
    values["empty_7d_shape"] = list(torch.empty(*SEVEN_D).shape)
    torch.manual_seed(0)
    values["randn_1d_seed0"] = flat(torch.randn(4))
    torch.manual_seed(0)
    values["randn_2_3_seed0"] = flat(torch.randn(2, 3))
    torch.manual_seed(0)
    separate = torch.randn(2, 3)
    torch.manual_seed(0)
    values["randn_2_3_list_same"] = torch.equal(separate, torch.randn([2, 3]))
    torch.manual_seed(0)
    values["randn_7d_seed0"] = flat(torch.randn(*SEVEN_D))
    torch.manual_seed(0)
    values["rand_7d_seed0"] = flat(torch.rand(*SEVEN_D))
    torch.manual_seed(0)
    t = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    values["randn_2_3_float64_seed0"] = flat(t)
    values["randn_2_3_float64_dtype"] = dtype(t)
    values["randn_2_3_float64_requires_grad"] = t.requires_grad
    torch.manual_seed(0)
    t = torch.rand(*SEVEN_D, dtype=torch.float64)
    values["rand_7d_float64_seed0"] = flat(t)
    values["zeros_7d_requires_grad"] = torch.zeros(*SEVEN_D, requires_grad=True).requires_grad
    g = torch.Generator()
    g.manual_seed(7)
    values["randn_2_3_generator7"] = flat(torch.randn(2, 3, generator=g))
    values["rand_2_3_generator7"] = flat(torch.rand(2, 3, generator=g))


def ragged_lists(values):
    """torch.tensor's error for nested lists whose rows differ (issue 10, item 14)."""
    values["ragged_row"] = error_text(lambda: torch.tensor([[1, 2], [3]]))
    values["ragged_longer_row"] = error_text(lambda: torch.tensor([[1.0], [2.0, 3.0]]))
    values["ragged_dim2"] = error_text(lambda: torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]]))


def first_line_of_error(body):
    """'' when body() works, else the first line of its error message."""
    message = raised(body)
    return "" if message is None else message.split("\n")[0]


def readback_values(values):
    """Reading values back: lazy views, complex numbers, every dtype's name (issue 10)."""
    values["neg_view_int"] = torch.tensor([1, -2, 3])._neg_view().tolist()
    values["neg_view_float"] = torch.tensor([[1.5, -2.0], [0.25, 4.0]], dtype=torch.float64)._neg_view().tolist()
    values["conj_imag"] = torch.view_as_complex(torch.tensor([[13.0, 2.0], [-2.0, -1.0]], dtype=torch.float64)).conj().imag.tolist()
    z = torch.tensor([1 + 2j, -0.5 - 1.5j, 3.0, 2j])
    values["complex_dtype"] = dtype(z)
    values["complex_pairs"] = [[c.real, c.imag] for c in z.tolist()]
    values["complex_reprs"] = [repr(c) for c in z.tolist()]
    values["complex_times_conj"] = [[c.real, c.imag] for c in (z * z.conj()).tolist()]
    values["complex_conj_pairs"] = [[c.real, c.imag] for c in z.conj().tolist()]
    parts = torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 0.5]))
    values["complex_from_parts_dtype"] = dtype(parts)
    values["complex_from_parts"] = [[c.real, c.imag] for c in parts.tolist()]
    edge = [(1.0, -0.0), (0.0, -2.0), (-0.0, 2.0), (0.0, 0.0), (1e20, -3.25), (2.5, 1e-07)]
    values["complex_edge_parts"] = [[re, im] for re, im in edge]
    values["complex_edge_reprs"] = [repr(complex(re, im)) for re, im in edge]
    values["uint32_values"] = torch.tensor([0, 7, 4294967295]).to(torch.uint32).tolist()
    values["uint16_values"] = torch.tensor([0, 7, 65535]).to(torch.uint16).tolist()
    values["uint64_values"] = torch.tensor([5, 2**62]).to(torch.uint64).tolist()
    values["uint64_minus_one_bits"] = torch.tensor([5, -1]).to(torch.uint64).view(torch.int64).tolist()
    values["float8_e4m3fn_values"] = torch.tensor([0.3, 1.7, -448.0, 3.14]).to(torch.float8_e4m3fn).tolist()
    values["float8_e5m2_values"] = torch.tensor([0.3, 1.7, -448.0, 3.14]).to(torch.float8_e5m2).tolist()
    hashed = torch.hash_tensor(torch.tensor([1.0, 2.0, 3.0]))
    values["hash_dtype"] = dtype(hashed)
    values["hash_bits"] = hashed.view(torch.int64).tolist()
    values["bool_view_of_bytes"] = torch.tensor([0, 1, 190, 255], dtype=torch.uint8).view(torch.bool).tolist()
    names = sorted({str(v).replace("torch.", "") for v in vars(torch).values() if isinstance(v, torch.dtype)})
    values["dtype_names"] = names
    values["dtype_to_errors"] = [first_line_of_error(lambda d=getattr(torch, n): torch.zeros(2).to(d)) for n in names]


def generators(values):
    """torch.Generator objects: draws that advance them across calls, seeds, states; the
    default generator's state; ops taking generator=."""
    g = torch.Generator().manual_seed(42)
    values["gen_randperm_twice"] = [torch.randperm(6, generator=g).tolist(), torch.randperm(6, generator=g).tolist()]
    values["gen_randn"] = flat(torch.randn(4, generator=g))
    values["gen_normal_"] = flat(torch.empty(3).normal_(2.0, 0.5, generator=g))
    values["gen_bernoulli"] = flat(torch.full((6,), 0.5).bernoulli(generator=g))
    values["gen_randint"] = torch.randint(0, 10, (5,), generator=g).tolist()
    values["gen_multinomial"] = torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 4, True, generator=g).tolist()
    values["gen_initial_seed"] = g.initial_seed()
    values["gen_default_seed"] = torch.Generator().initial_seed()
    values["gen_state_size"] = list(g.get_state().shape)
    state = g.get_state()
    first = flat(torch.rand(3, generator=g))
    g.set_state(state)
    values["gen_replayed"] = first == flat(torch.rand(3, generator=g))
    torch.manual_seed(9)
    values["rng_initial_seed"] = torch.initial_seed()
    values["rng_state_size"] = list(torch.get_rng_state().shape)
    values["rng_after_seed"] = flat(torch.rand(2))
    values["gen_bad_state"] = raised(lambda: torch.Generator().set_state(torch.zeros(3, dtype=torch.uint8)))


def raised_type_error(thunk):
    """The message of a TypeError, as Python's len() and iteration raise for a 0-d tensor."""
    try:
        thunk()
    except TypeError as e:
        return str(e)
    return None


def index_error(thunk):
    """The message of an IndexError Python's indexing raises."""
    try:
        thunk()
    except IndexError as e:
        return str(e)
    return None


def main():
    values = {}
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    row = torch.tensor([10.0, 20.0, 30.0])
    values["broadcast_add"] = flat(a + row)
    values["scalar_left_sub"] = flat(1.0 - a)
    values["scalar_right_div"] = flat(a / 4)
    values["pow2"] = flat(a ** 2)
    ints = torch.tensor([1, 2, 3])
    values["int_plus_int_dtype"] = dtype(ints + 2)
    values["int_plus_float_dtype"] = dtype(ints + 2.0)
    values["int_plus_int"] = flat(ints + 2)
    values["sum_dim1_keepdim"] = flat(a.sum(1, keepdim=True))
    values["sum_dim1_keepdim_shape"] = list(a.sum(1, keepdim=True).shape)
    values["mean_dim0"] = flat(a.mean(0))
    m = torch.tensor([[3.0, 1.0, 2.0], [0.5, 9.0, 4.0]])
    mv, mi = m.max(1)
    values["max_dim1_values"] = flat(mv)
    values["max_dim1_indices"] = flat(mi)
    sv, si = m.sort(1)
    values["sort_values"] = flat(sv)
    values["sort_indices"] = flat(si)
    tv, ti = m.topk(2, 1)
    values["topk_values"] = flat(tv)
    values["topk_indices"] = flat(ti)
    b = torch.tensor([[1.0, 0.5], [-1.0, 2.0], [0.0, 3.0]])
    values["matmul"] = flat(a @ b)
    values["softmax"] = flat(torch.softmax(torch.tensor([1.0, 2.0, 3.0]), 0))
    img = torch.arange(16.0).reshape(1, 1, 4, 4)
    w = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]]]])
    values["conv2d"] = flat(torch.nn.functional.conv2d(img, w, torch.tensor([0.5]), stride=1, padding=1))
    values["conv2d_shape"] = list(torch.nn.functional.conv2d(img, w, torch.tensor([0.5]), stride=1, padding=1).shape)
    values["cat_dim0"] = flat(torch.cat([a, a * 2], 0))
    values["stack_shape"] = list(torch.stack([a, a], 0).shape)
    values["row1"] = flat(a[1])
    values["col1"] = flat(a[:, 1])
    values["slice_cols"] = flat(a[:, 1:3])
    # Attributes: x.T, x.mT, x.H, x.mH, x.real, x.imag, sizes in bytes, autograd flags.
    z = torch.complex(a, -a)
    leaf = a.clone().requires_grad_()
    mid = leaf * 2
    mid.retain_grad()
    values["attributes"] = [a.T.tolist(), a.mT.tolist(), flat(torch.view_as_real(z.H.resolve_conj())), flat(torch.view_as_real(z.mH.resolve_conj())),
                            z.real.tolist(), z.imag.tolist(), a.real.tolist(),
                            [a.itemsize, a.nbytes, a.double().itemsize, a.double().nbytes, a.short().itemsize, a.element_size()],
                            [str(t.dtype).replace("torch.", "") for t in (a.short(), a.char(), a.byte(), a.cfloat(), a.cdouble(), a.chalf())],
                            [leaf.is_leaf, mid.is_leaf, mid.retains_grad, leaf.retains_grad, mid.output_nr],
                            a.data.tolist(), a.data.requires_grad]
    values["imag_of_real"] = first_line_of_error(lambda: a.imag)
    values["norm_forms"] = [a.norm(dim=[1]).tolist(), a.norm(dim=[0, 1]).tolist(), a.norm(dim=[1], keepdim=True).tolist(),
                            a.norm(2).tolist(), a.norm().tolist(), a.norm(1, dim=[0]).tolist()]
    values["sequence_forms"] = [list(a[:, None].shape), list(a[None].shape), list(a[None, :, None].shape),
                                a[[1, 0]].tolist(), a[:, [0, 2]].tolist(), a[[True, False]].tolist(), len(a),
                                [r.tolist() for r in a], a[:, None][1, 0].tolist()]
    b = torch.arange(12.0)
    values["varargs_forms"] = [list(b.view(-1, 4).shape), b.view(3, 4).permute(1, 0).tolist(), list(b.reshape(2, 6).shape),
                               list(b.view(3, 4).expand(2, 3, 4).shape), b.view(2, 6)[:, :2].repeat(2, 1).tolist(),
                               b.view(3, 4).flip(0, 1).tolist(), b.view(2, 2, 3).tile(2).shape[-1], b.new_zeros(2, 3).tolist(),
                               b.new_ones(1, 2).tolist(), list(b.new_empty(4, 1).shape), b.view(12).tolist()]
    c = torch.tensor([[1.0, 3.0, 2.0], [6.0, 5.0, 4.0]])
    named = [c.max(1), c.min(dim=0), c.sort(dim=1, descending=True), c.topk(2), c.kthvalue(2, 1), c.mode(1),
             c.median(1), c.nanmedian(0), c.cummax(1), c.cummin(0), c.aminmax(), torch.frexp(c),
             torch.linalg.slogdet(c[:, :2]), torch.linalg.cholesky_ex(torch.diag(torch.tensor([4.0, 9.0]))), torch.histogram(c, bins=3), torch.linalg.eigh(c[:, :2] @ c[:, :2].T)]
    values["named_results"] = [[list(type(r).__match_args__), [t.tolist() for t in r]] for r in named]
    values["named_result_repr"] = repr(c.max(1))
    e = torch.arange(24.0).view(2, 3, 4)
    values["ellipsis_forms"] = [e[..., 0].tolist(), e[0, ...].tolist(), list(e[..., 1:3].shape), list(e[..., None].shape),
                                e[0, ..., 2].tolist(), list(e[...].shape), list(e[None, ..., 0].shape)]
    values["ellipsis_errors"] = [index_error(lambda: e[0, 0, 0, 0, ...])]
    torch.manual_seed(5)
    with torch.random.fork_rng():
        inside = torch.randn(3).tolist()
    after = torch.randn(3).tolist()
    with torch.random.fork_rng(enabled=False):
        torch.randn(2)
    values["fork_rng"] = [inside, after, torch.randn(3).tolist(), torch.random.thread_safe_generator()]
    values["sequence_errors"] = [raised_type_error(lambda: len(torch.tensor(1.0))),
                                 raised_type_error(lambda: list(torch.tensor(1.0)))]
    values["index_errors"] = [index_error(lambda: a[1, 4]), index_error(lambda: a[2]), index_error(lambda: a[0, -4]),
                              index_error(lambda: a[0][0][0])]
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    values["grad_x_squared"] = flat(x.grad)
    torch.manual_seed(0)
    values["randn_seed0"] = flat(torch.randn(5))
    values["arange_5"] = flat(torch.arange(5))
    values["linspace"] = flat(torch.linspace(0, 1, 5))
    values["eye3"] = flat(torch.eye(3))
    values["exp_log"] = flat(torch.tensor([0.5, 1.0, 2.0]).exp().log())
    values["relu_tanh"] = flat(torch.tensor([-1.0, 0.0, 2.0]).relu().tanh())
    values["mse"] = torch.nn.functional.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 1.0])).item()
    values["to_float64_dtype"] = dtype(a.to(torch.float64))
    values["print_float"] = repr(a)
    values["print_fraction"] = repr(torch.tensor([[0.5, 1.25], [3.0, -2.125]]))
    values["print_int"] = repr(torch.tensor([[1, 2], [30, 4]]))
    values["print_bool"] = repr(torch.tensor([True, False]))
    values["print_scalar"] = repr(torch.tensor(3.5))
    values["print_float64"] = repr(torch.tensor([1.0, 2.5], dtype=torch.float64))
    values["print_requires_grad"] = repr(torch.tensor([1.0, 2.0], requires_grad=True))
    values["shape_mismatch_message"] = ""
    try:
        torch.ones(2, 3) + torch.ones(4, 5)
    except RuntimeError as e:
        values["shape_mismatch_message"] = str(e)

    conveniences(values)
    variadic_sizes(values)
    generators(values)
    ragged_lists(values)
    readback_values(values)

    # `ref_` keeps these apart from lib.torch's own names (softmax, conv2d...).
    write(OUT, __file__, values, export=True)
    print(f"wrote {len(values)} reference values to {OUT}")


if __name__ == "__main__":
    main()
