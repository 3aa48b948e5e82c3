#!/usr/bin/env python3
"""Writes tests/nn/prune_fixtures.spl: torch.nn.utils.prune on the pin, for prune_spec.spl, on a
Linear(5, 4) and a Conv2d(2, 4, 3) (float64, weights from fixed values): each method's mask and
pruned weight, the names of parameters and buffers and the state_dict keys, the output after
pruning (and after name_orig changes), the gradients through the mask, iterative pruning through
PruningContainer, global_unstructured, a method of one's own, remove, is_pruned, the random methods' masks under a
seed, and PyTorch's messages for the refusals.
Run: .venv/bin/python tests/nn/make_prune_fixtures.py"""
import os
import sys

import torch
from torch import nn
from torch.nn.utils import prune

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


def fill(m):
    """Parameters from fixed values, no initialiser involved."""
    with torch.no_grad():
        for k, p in enumerate(m.parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float64).reshape(p.shape) * (0.37 + 0.11 * k)).sin())
    return m


class FooBarPruningMethod(prune.BasePruningMethod):
    """PyTorch's tutorial method: every other entry of what is left."""
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def linear():
    return fill(nn.Linear(5, 4).double())


def conv():
    return fill(nn.Conv2d(2, 4, 3).double())


def x_linear():
    return (torch.arange(15, dtype=torch.float64).reshape(3, 5) * 0.7).cos()


def x_conv():
    return (torch.arange(100, dtype=torch.float64).reshape(2, 2, 5, 5) * 0.3).cos()


def run(m, x):
    """The output and, after backward of its weighted sum, every parameter's gradient."""
    out = m(x)
    weights = torch.arange(out.numel(), dtype=torch.float64).reshape(out.shape).cos()
    (out * weights).sum().backward()
    return out.tolist(), [p.grad.tolist() for p in m.parameters()]


def describe(v, key, m, name="weight"):
    v[key + "_mask"] = getattr(m, name + "_mask").tolist()
    v[key + "_pruned"] = getattr(m, name).tolist()
    v[key + "_params"] = [n for n, _ in m.named_parameters()]
    v[key + "_buffers"] = [n for n, _ in m.named_buffers()]
    v[key + "_keys"] = list(m.state_dict().keys())


def error_of(f):
    try:
        f()
    except (ValueError, IndexError, TypeError, AttributeError) as e:
        return str(e)
    return None


def main():
    v = {}
    m = prune.l1_unstructured(linear(), "weight", amount=0.3)
    describe(v, "l1", m)
    v["l1_out"], v["l1_grads"] = run(m, x_linear())
    with torch.no_grad():
        m.weight_orig.mul_(2.0)
    v["l1_out_rescaled"] = m(x_linear()).tolist()

    m = prune.l1_unstructured(conv(), "weight", amount=7)
    describe(v, "l1_int", m)
    v["l1_int_out"], v["l1_int_grads"] = run(m, x_conv())

    m = linear()
    torch.manual_seed(3)
    prune.random_unstructured(m, "weight", amount=0.5)
    describe(v, "random", m)

    m = conv()
    torch.manual_seed(4)
    prune.random_structured(m, "weight", amount=2, dim=0)
    describe(v, "random_structured", m)

    m = prune.ln_structured(conv(), "weight", amount=0.5, n=2, dim=1)
    describe(v, "ln", m)
    v["ln_out"], v["ln_grads"] = run(m, x_conv())

    m = prune.ln_structured(linear(), "weight", amount=2, n=1, dim=-1)
    describe(v, "ln1", m)

    m = prune.identity(linear(), "weight")
    describe(v, "identity", m)

    m = prune.custom_from_mask(linear(), "bias", mask=torch.tensor([0.0, 1.0, 0.0, 1.0], dtype=torch.float64))
    describe(v, "custom", m, "bias")
    v["custom_out"], v["custom_grads"] = run(m, x_linear())

    # iterative: three prunings of one tensor compose through a PruningContainer
    m = conv()
    prune.l1_unstructured(m, "weight", amount=0.25)
    prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
    torch.manual_seed(5)
    prune.random_unstructured(m, "weight", amount=0.2)
    describe(v, "iterative", m)
    v["iterative_hooks"] = [type(h).__name__ for h in m._forward_pre_hooks.values()]
    v["iterative_methods"] = [type(p).__name__ for p in next(iter(m._forward_pre_hooks.values()))._pruning_methods]
    v["iterative_out"], v["iterative_grads"] = run(m, x_conv())

    # global: the smallest 40% across both weights; then a seeded random one on top
    a, b = linear(), conv()
    prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=0.4)
    v["global_masks"] = [a.weight_mask.tolist(), b.weight_mask.tolist()]
    torch.manual_seed(6)
    prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.RandomUnstructured, amount=0.3)
    v["global_random_masks"] = [a.weight_mask.tolist(), b.weight_mask.tolist()]
    v["global_keys"] = list(a.state_dict().keys())

    # importance scores: pruning by another tensor's magnitudes
    scores = (torch.arange(20, dtype=torch.float64).reshape(4, 5) * 1.3).cos()
    m = prune.l1_unstructured(linear(), "weight", amount=5, importance_scores=scores)
    v["scores_mask"] = m.weight_mask.tolist()

    # a method of one's own, then composed with l1_unstructured
    m = linear()
    FooBarPruningMethod.apply(m, "weight")
    v["foobar_mask"] = m.weight_mask.tolist()
    prune.l1_unstructured(m, "weight", amount=3)
    v["foobar_l1_mask"] = m.weight_mask.tolist()

    # remove: the pruned values become the parameter again
    m = prune.l1_unstructured(linear(), "weight", amount=0.3)
    v["pruned_before_remove"] = prune.is_pruned(m)
    prune.remove(m, "weight")
    v["removed_weight"] = m.weight.tolist()
    v["removed_params"] = sorted(n for n, _ in m.named_parameters())
    v["removed_keys"] = sorted(m.state_dict().keys())
    v["removed_is_parameter"] = isinstance(m.weight, nn.Parameter)
    v["pruned_after_remove"] = prune.is_pruned(m)
    v["removed_out"], v["removed_grads"] = run(m, x_linear())

    v["error_amount_float"] = error_of(lambda: prune.l1_unstructured(linear(), "weight", amount=1.5))
    v["error_amount_negative"] = error_of(lambda: prune.l1_unstructured(linear(), "weight", amount=-1))
    v["error_amount_large"] = error_of(lambda: prune.l1_unstructured(linear(), "weight", amount=30))
    v["error_structured_1d"] = error_of(lambda: prune.ln_structured(linear(), "bias", amount=1, n=2, dim=0))
    v["error_dim"] = error_of(lambda: prune.random_structured(linear(), "weight", amount=1, dim=2))
    v["error_remove"] = error_of(lambda: prune.remove(linear(), "weight"))
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "prune_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
