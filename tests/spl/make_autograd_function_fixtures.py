#!/usr/bin/env python3
"""Writes tests/spl/autograd_function_fixtures.spl: what custom torch.autograd.Functions and
tensor hooks give on the pin, for autograd_function_spec.spl, which defines the same Functions
in Simple: outputs and every gradient, node names, double backward through a Function, values
kept on the context, non-tensor inputs and outputs, mark_dirty / mark_non_differentiable /
set_materialize_grads, hook order and replaced gradients, post-accumulate-grad hooks, the
gradcheck verdicts, and PyTorch's messages for the refusals.
Run: .venv/bin/python tests/spl/make_autograd_function_fixtures.py"""
import os
import sys

import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402  (the one writer of Simple fixture files)


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3.0 * x * x


class MulConst(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


class LogSumExp(Function):
    """The numerically stable one: max subtracted before exp."""

    @staticmethod
    def forward(ctx, x):
        m = x.max()
        r = (x - m).exp().sum().log() + m
        ctx.save_for_backward(x, r)
        return r

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        return g * (x - r).exp()


class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * (1.0 - y * y)


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.sigmoid()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * (1.0 - y)


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp().log1p()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.sigmoid()


class Linear(Function):
    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        return x @ w.t() + b

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g @ w, g.t() @ x, g.sum(0)


class SumProd(Function):
    """Two outputs, a tuple."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a + b, a * b

    @staticmethod
    def backward(ctx, g_sum, g_prod):
        a, b = ctx.saved_tensors
        return g_sum + g_prod * b, g_sum + g_prod * a


class Hypot(Function):
    @staticmethod
    def forward(ctx, a, b):
        r = (a * a + b * b).sqrt()
        ctx.save_for_backward(a, b, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b, r = ctx.saved_tensors
        return g * a / r, g * b / r


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2.0 * x


class WrongSin(Function):
    """A wrong backward (the sign of cos flipped): gradcheck must fail."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return -(g * x.cos())


class ScaleWithInfo(Function):
    """A non-tensor output beside a tensor one, and a non-tensor input."""

    @staticmethod
    def forward(ctx, x, label):
        return x * 2.0, label + "!"

    @staticmethod
    def backward(ctx, g, g_label):
        return g * 2.0, None


class ArgmaxAndValue(Function):
    """mark_non_differentiable: the indices have no gradient."""

    @staticmethod
    def forward(ctx, x):
        v, i = x.max(0)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(x, i)
        return v, i

    @staticmethod
    def backward(ctx, g, g_i):
        x, i = ctx.saved_tensors
        return torch.zeros_like(x).index_fill(0, i, 1.0) * g


class DoubleInPlace(Function):
    """mark_dirty: the input is changed in place and returned."""

    @staticmethod
    def forward(ctx, x):
        x.mul_(2.0)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2.0


class NoneOrZeros(Function):
    """set_materialize_grads: what backward sees for an output that got no gradient."""

    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 1.0, x * 2.0

    @staticmethod
    def backward(ctx, g1, g2):
        NoneOrZeros.seen = [g1 is None, g2 is None]
        total = g1 if g2 is None else g1 + 2.0 * g2
        return total, None


class OnceCube(Cube):
    """Cube, its backward marked @once_differentiable."""

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return Cube.backward(ctx, g)


class WrongCount(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, g):
        return g


class GradForNonTensor(Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2.0

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5, dtype=g.dtype)


def error_of(thunk):
    try:
        thunk()
    except RuntimeError as e:
        return str(e).split("\n")[0]
    return None


def grads_of(fn, *inputs):
    """The forward's value(s) and every input's .grad after backward of the sum of all outputs."""
    out = fn(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    total = sum(o.sum() for o in outs if isinstance(o, torch.Tensor) and o.requires_grad)
    total.backward()
    return [[o.tolist() for o in outs if isinstance(o, torch.Tensor)], [i.grad.tolist() for i in inputs
                                                                          if isinstance(i, torch.Tensor)]]


def leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def main():
    x = [0.5, -1.0, 2.0]
    y = [1.5, 0.25, -0.75]
    m = [[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]
    w = [[0.1, 0.2, 0.3], [-0.4, 0.5, 0.6]]
    b = [0.01, -0.02]
    v = {}
    v["exp"] = grads_of(Exp.apply, leaf(x))
    v["exp_name"] = Exp.apply(leaf(x)).grad_fn.name()
    v["cube"] = grads_of(Cube.apply, leaf(x))
    v["mul_const"] = grads_of(lambda t: MulConst.apply(t, 3.0), leaf(x))
    v["logsumexp"] = grads_of(LogSumExp.apply, leaf([1000.0, 1000.5, 999.0]))
    v["tanh"] = grads_of(Tanh.apply, leaf(x))
    v["sigmoid"] = grads_of(Sigmoid.apply, leaf(x))
    v["softplus"] = grads_of(Softplus.apply, leaf(x))
    v["linear"] = grads_of(Linear.apply, leaf(m), leaf(w), leaf(b))
    v["sum_prod"] = grads_of(SumProd.apply, leaf(x), leaf(y))
    v["hypot"] = grads_of(Hypot.apply, leaf(x), leaf(y))
    v["square"] = grads_of(Square.apply, leaf(x))
    v["float32"] = grads_of(Exp.apply, leaf(x, torch.float32))

    # Double backward through a Function whose backward is made of differentiable operations.
    t = leaf(x)
    (d1,) = torch.autograd.grad(Cube.apply(t).sum(), t, create_graph=True)
    (d2,) = torch.autograd.grad(d1.sum(), t)
    v["double"] = [d1.tolist(), d2.tolist(), d1.grad_fn.name()]

    # A non-tensor input and output.
    t = leaf(x)
    out, label = ScaleWithInfo.apply(t, "hi")
    out.sum().backward()
    v["non_tensor"] = [out.tolist(), label, t.grad.tolist()]

    # mark_non_differentiable.
    t = leaf(x)
    val, idx = ArgmaxAndValue.apply(t)
    val.backward()
    v["non_differentiable"] = [val.item(), idx.item(), idx.requires_grad, val.requires_grad, t.grad.tolist()]

    # mark_dirty: the input changed in place carries the Function's history.
    base = leaf(x)
    t = base * 1.0
    r = DoubleInPlace.apply(t)
    r.sum().backward()
    v["dirty"] = [r.tolist(), t.tolist(), r.grad_fn.name(), t.grad_fn.name(), base.grad.tolist()]
    v["dirty_leaf"] = error_of(lambda: DoubleInPlace.apply(leaf(x)))

    # set_materialize_grads: the second output is not used.
    seen = []
    for materialize in (True, False):
        t = leaf(x)
        a, _ = NoneOrZeros.apply(t, materialize)
        a.sum().backward()
        seen.append([NoneOrZeros.seen, t.grad.tolist()])
    v["materialize"] = seen

    # once_differentiable: first derivatives as usual, the second refused.
    t = leaf(x)
    (g,) = torch.autograd.grad(OnceCube.apply(t).sum(), t)
    (g2,) = torch.autograd.grad(OnceCube.apply(t).sum(), t, create_graph=True)
    v["once"] = [g.tolist(), g2.requires_grad, error_of(lambda: g2.sum().backward())]

    # needs_input_grad.
    class Needs(Function):
        @staticmethod
        def forward(ctx, a, k, c):
            Needs.needs = list(ctx.needs_input_grad)
            return a * c

        @staticmethod
        def backward(ctx, g):
            return None, None, None

    Needs.apply(leaf(x), 2, torch.tensor(x))
    v["needs_input_grad"] = Needs.needs

    # No node where no input requires grad, or under no_grad.
    plain = Exp.apply(torch.tensor(x))
    with torch.no_grad():
        quiet = Exp.apply(leaf(x))
    v["no_node"] = [plain.requires_grad, plain.grad_fn is None, quiet.requires_grad]

    # The refusals.
    a, b2 = leaf(x), leaf(y)
    v["wrong_count"] = error_of(lambda: WrongCount.apply(a, b2).sum().backward())
    v["grad_for_non_tensor"] = error_of(lambda: GradForNonTensor.apply(leaf(x), 2.0).sum().backward())
    v["wrong_shape"] = error_of(lambda: WrongShape.apply(leaf(x)).sum().backward())
    t = leaf(x)
    e = Exp.apply(t)
    e.mul_(2.0)
    v["modified_saved"] = error_of(lambda: e.sum().backward())
    t = leaf(x)
    e = Exp.apply(t)
    e.sum().backward()
    v["second_backward"] = error_of(lambda: e.sum().backward())

    # gradcheck: eleven Functions pass, the wrong one fails.
    xs = leaf(x)
    ys = leaf(y)
    checks = [
        gradcheck_ok(Exp.apply, (xs,)),
        gradcheck_ok(Cube.apply, (xs,)),
        gradcheck_ok(lambda t: MulConst.apply(t, 3.0), (xs,)),
        gradcheck_ok(LogSumExp.apply, (xs,)),
        gradcheck_ok(Tanh.apply, (xs,)),
        gradcheck_ok(Sigmoid.apply, (xs,)),
        gradcheck_ok(Softplus.apply, (xs,)),
        gradcheck_ok(Linear.apply, (leaf(m), leaf(w), leaf(b))),
        gradcheck_ok(SumProd.apply, (xs, ys)),
        gradcheck_ok(Hypot.apply, (xs, ys)),
        gradcheck_ok(Square.apply, (xs,)),
        gradcheck_ok(WrongSin.apply, (xs,)),
    ]
    v["gradcheck"] = checks
    v["gradgradcheck_cube"] = torch.autograd.gradgradcheck(Cube.apply, (xs,))

    # Hooks: order, a replaced gradient, removal, post-accumulate hooks.
    order = []
    t = leaf(x)
    mid = t * 3.0

    def first(g):
        order.append(["first", g.tolist()])
        return g * 2.0

    def second(g):
        order.append(["second", g.tolist()])

    h1 = mid.register_hook(first)
    mid.register_hook(second)
    t.register_post_accumulate_grad_hook(lambda p: order.append(["post", p.grad.tolist()]))
    t.register_hook(lambda g: order.append(["leaf", g.tolist()]))
    mid.sum().backward()
    v["hooks"] = [list(order), t.grad.tolist()]
    order.clear()
    h1.remove()
    t.grad = None
    (t * 3.0).sum().backward()
    mid2 = t * 3.0
    mid2.register_hook(second)
    t.grad = None
    mid2.sum().backward()
    v["hooks_removed"] = [order, t.grad.tolist()]
    v["hook_no_grad"] = error_of(lambda: torch.tensor(x).register_hook(lambda g: g))
    v["post_hook_non_leaf"] = error_of(lambda: (leaf(x) * 2.0).register_post_accumulate_grad_hook(lambda p: None))

    # retain_grad: a non-leaf's .grad kept.
    t = leaf(x)
    mid = t * 3.0
    mid.retain_grad()
    (mid * mid).sum().backward()
    v["retain_grad"] = [mid.grad.tolist(), mid.retains_grad]

    # Re-entrant backward: a hook that runs a backward of its own, inside the outer one.
    t = leaf(x)
    inner = leaf(y)

    def reentrant(g):
        with torch.enable_grad():  # backward runs its hooks with grad mode off
            (inner * inner).sum().backward()
        return g * inner.grad

    mid = t * 3.0
    mid.register_hook(reentrant)
    mid.sum().backward()
    v["reentrant"] = [t.grad.tolist(), inner.grad.tolist()]

    # Training through a Function while the DataLoader gathers the next batch.
    data = torch.arange(192, dtype=torch.float64).reshape(64, 3).sin()
    target = data @ torch.tensor([[1.0, -2.0, 0.5], [0.25, 0.0, -1.0]], dtype=torch.float64).t()
    weight = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, target), batch_size=16)
    for _ in range(3):
        for xb, yb in loader:
            loss = (Linear.apply(xb, weight, bias) - yb).pow(2).mean()
            loss.backward()
            with torch.no_grad():
                weight.sub_(weight.grad * 0.1)
                bias.sub_(bias.grad * 0.1)
            weight.grad = None
            bias.grad = None
    v["loader_training"] = [weight.tolist(), bias.tolist()]

    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "autograd_function_fixtures.spl"), __file__, v)


def gradcheck_ok(fn, inputs):
    return torch.autograd.gradcheck(fn, inputs, raise_exception=False)


if __name__ == "__main__":
    main()
