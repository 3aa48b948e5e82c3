#!/usr/bin/env python3
"""Writes tests/nn/loss_fixtures.spl: torch.nn.functional's losses, linear and distance
functions, and torch.nn's loss modules, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_loss_fixtures.py

Inputs are written as literals (so the spec does not depend on drawing the same random
numbers), then every case is run in every reduction:
  ref_inputs[case]        {"values", "shapes", "dtypes", "grad"}: the input tensors
  ref_results[case/red]   {"out", "out_shape", "grads"}: the output and the gradients of the
                          inputs marked "grad" after (out * upstream(out)).sum().backward()
  ref_reduction_errors    {case: text}: the error for reduction "bogus" (PyTorch's own text)
  ref_errors              {name: text}: bad input, PyTorch's / ATen's text
  ref_modules[name]       {"repr", "state_keys", "buffers", "out", "out_shape", "grads"}
The spec (loss_spec.spl) has the same case names, each with the same call.
"""
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REDUCTIONS = ["none", "mean", "sum"]


def leaf(t):
    """A float input that requires grad (a leaf, as the spec builds it from its values)."""
    return t.detach().clone().requires_grad_(True)


def ints(*values):
    return torch.tensor(values, dtype=torch.int64)


def pm1(*shape):
    """Targets of 1 and -1."""
    return torch.randint(0, 2, shape).float() * 2 - 1


# name -> (inputs(), loss(args, reduction), reductions). Inputs are drawn after
# manual_seed(index); a float input requiring grad has its gradient checked.
CASES = {
    # regression
    "mse": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4)], lambda a, r: F.mse_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "mse_broadcast": (lambda: [leaf(torch.randn(3, 4)), torch.randn(4)], lambda a, r: F.mse_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "mse_weight": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4), torch.rand(3, 4)], lambda a, r: F.mse_loss(a[0], a[1], reduction=r, weight=a[2]), REDUCTIONS),
    "l1": (lambda: [leaf(torch.randn(3, 4)), leaf(torch.randn(3, 4))], lambda a, r: F.l1_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "l1_weight": (lambda: [leaf(torch.randn(2, 5)), torch.randn(2, 5), torch.rand(2, 5)], lambda a, r: F.l1_loss(a[0], a[1], reduction=r, weight=a[2]), REDUCTIONS),
    "smooth_l1": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4)], lambda a, r: F.smooth_l1_loss(a[0], a[1], reduction=r, beta=0.5), REDUCTIONS),
    "smooth_l1_beta0": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4)], lambda a, r: F.smooth_l1_loss(a[0], a[1], reduction=r, beta=0.0), REDUCTIONS),
    "huber": (lambda: [leaf(torch.randn(3, 4) * 2), torch.randn(3, 4)], lambda a, r: F.huber_loss(a[0], a[1], reduction=r, delta=0.7), REDUCTIONS),
    "huber_weight": (lambda: [leaf(torch.randn(3, 4) * 2), torch.randn(3, 4), torch.rand(3, 4)], lambda a, r: F.huber_loss(a[0], a[1], reduction=r, delta=1.5, weight=a[2]), REDUCTIONS),
    # classification
    "cross_entropy": (lambda: [leaf(torch.randn(4, 5)), ints(1, 0, 4, 2)], lambda a, r: F.cross_entropy(a[0], a[1], reduction=r), REDUCTIONS),
    "cross_entropy_weight": (lambda: [leaf(torch.randn(4, 5)), ints(1, 0, 4, 4), torch.rand(5)], lambda a, r: F.cross_entropy(a[0], a[1], weight=a[2], reduction=r), REDUCTIONS),
    "cross_entropy_ignore": (lambda: [leaf(torch.randn(5, 4)), ints(1, 2, 0, 2, 3), torch.rand(4)], lambda a, r: F.cross_entropy(a[0], a[1], weight=a[2], ignore_index=2, reduction=r), REDUCTIONS),
    "cross_entropy_ignore_default": (lambda: [leaf(torch.randn(4, 3)), ints(1, -100, 0, 2)], lambda a, r: F.cross_entropy(a[0], a[1], reduction=r), REDUCTIONS),
    "cross_entropy_smoothing": (lambda: [leaf(torch.randn(4, 5)), ints(3, 0, 1, 3), torch.rand(5)], lambda a, r: F.cross_entropy(a[0], a[1], weight=a[2], ignore_index=1, label_smoothing=0.2, reduction=r), REDUCTIONS),
    "cross_entropy_probs": (lambda: [leaf(torch.randn(4, 5)), torch.randn(4, 5).softmax(1)], lambda a, r: F.cross_entropy(a[0], a[1], reduction=r), REDUCTIONS),
    "cross_entropy_probs_smoothing": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4).softmax(1), torch.rand(4)], lambda a, r: F.cross_entropy(a[0], a[1], weight=a[2], label_smoothing=0.3, reduction=r), REDUCTIONS),
    "cross_entropy_kdim": (lambda: [leaf(torch.randn(2, 3, 4, 2)), torch.randint(0, 3, (2, 4, 2)), torch.rand(3)], lambda a, r: F.cross_entropy(a[0], a[1], weight=a[2], ignore_index=1, reduction=r), REDUCTIONS),
    "cross_entropy_kdim_probs": (lambda: [leaf(torch.randn(2, 3, 4)), torch.randn(2, 3, 4).softmax(1)], lambda a, r: F.cross_entropy(a[0], a[1], label_smoothing=0.1, reduction=r), REDUCTIONS),
    "cross_entropy_unbatched": (lambda: [leaf(torch.randn(5)), torch.tensor(3)], lambda a, r: F.cross_entropy(a[0], a[1], reduction=r), REDUCTIONS),
    "nll": (lambda: [leaf(torch.randn(4, 5).log_softmax(1)), ints(0, 4, 2, 2)], lambda a, r: F.nll_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "nll_weight_ignore": (lambda: [leaf(torch.randn(5, 3).log_softmax(1)), ints(0, 2, 1, 2, 1), torch.rand(3)], lambda a, r: F.nll_loss(a[0], a[1], weight=a[2], ignore_index=1, reduction=r), REDUCTIONS),
    "nll_kdim": (lambda: [leaf(torch.randn(2, 4, 3).log_softmax(1)), torch.randint(0, 4, (2, 3))], lambda a, r: F.nll_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "bce": (lambda: [leaf(torch.randn(3, 4).sigmoid()), torch.rand(3, 4)], lambda a, r: F.binary_cross_entropy(a[0], a[1], reduction=r), REDUCTIONS),
    "bce_weight": (lambda: [leaf(torch.randn(3, 4).sigmoid()), torch.randint(0, 2, (3, 4)).float(), torch.rand(4)], lambda a, r: F.binary_cross_entropy(a[0], a[1], weight=a[2], reduction=r), REDUCTIONS),
    "bce_logits": (lambda: [leaf(torch.randn(3, 4) * 3), torch.rand(3, 4)], lambda a, r: F.binary_cross_entropy_with_logits(a[0], a[1], reduction=r), REDUCTIONS),
    "bce_logits_weights": (lambda: [leaf(torch.randn(3, 4) * 3), torch.randint(0, 2, (3, 4)).float(), torch.rand(3, 1), torch.rand(4) * 3], lambda a, r: F.binary_cross_entropy_with_logits(a[0], a[1], weight=a[2], reduction=r, pos_weight=a[3]), REDUCTIONS),
    "kl_div": (lambda: [leaf(torch.randn(3, 5).log_softmax(1)), torch.randn(3, 5).softmax(1)], lambda a, r: F.kl_div(a[0], a[1], reduction=r), REDUCTIONS + ["batchmean"]),
    "kl_div_log_target": (lambda: [leaf(torch.randn(3, 5).log_softmax(1)), leaf(torch.randn(3, 5).log_softmax(1))], lambda a, r: F.kl_div(a[0], a[1], reduction=r, log_target=True), REDUCTIONS + ["batchmean"]),
    "poisson_nll": (lambda: [leaf(torch.randn(3, 4)), torch.randint(0, 5, (3, 4)).float()], lambda a, r: F.poisson_nll_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "poisson_nll_full": (lambda: [leaf(torch.rand(3, 4) * 3 + 0.1), torch.randint(0, 5, (3, 4)).float()], lambda a, r: F.poisson_nll_loss(a[0], a[1], log_input=False, full=True, eps=1e-6, reduction=r), REDUCTIONS),
    "gaussian_nll": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4), leaf(torch.rand(3, 4) + 0.1)], lambda a, r: F.gaussian_nll_loss(a[0], a[1], a[2], reduction=r), REDUCTIONS),
    "gaussian_nll_homoscedastic": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4), leaf(torch.rand(3) + 0.1)], lambda a, r: F.gaussian_nll_loss(a[0], a[1], a[2], full=True, reduction=r), REDUCTIONS),
    "gaussian_nll_broadcast_var": (lambda: [leaf(torch.randn(2, 3, 4)), torch.randn(2, 3, 4), leaf(torch.rand(2, 1, 4))], lambda a, r: F.gaussian_nll_loss(a[0], a[1], a[2], eps=0.3, reduction=r), REDUCTIONS),
    "gaussian_nll_float_var": (lambda: [leaf(torch.randn(3, 4)), torch.randn(3, 4)], lambda a, r: F.gaussian_nll_loss(a[0], a[1], 0.5, full=True, reduction=r), REDUCTIONS),
    # margins and embeddings
    "cosine_embedding": (lambda: [leaf(torch.randn(4, 5)), leaf(torch.randn(4, 5)), pm1(4)], lambda a, r: F.cosine_embedding_loss(a[0], a[1], a[2], margin=0.2, reduction=r), REDUCTIONS),
    "margin_ranking": (lambda: [leaf(torch.randn(6)), leaf(torch.randn(6)), pm1(6)], lambda a, r: F.margin_ranking_loss(a[0], a[1], a[2], margin=0.3, reduction=r), REDUCTIONS),
    "triplet_margin": (lambda: [leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6))], lambda a, r: F.triplet_margin_loss(a[0], a[1], a[2], reduction=r), REDUCTIONS),
    "triplet_margin_swap_p1": (lambda: [leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6))], lambda a, r: F.triplet_margin_loss(a[0], a[1], a[2], margin=2.0, p=1.0, swap=True, reduction=r), REDUCTIONS),
    "triplet_distance": (lambda: [leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6))], lambda a, r: F.triplet_margin_with_distance_loss(a[0], a[1], a[2], reduction=r), REDUCTIONS),
    "triplet_distance_cosine_swap": (lambda: [leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6)), leaf(torch.randn(4, 6))],
                                     lambda a, r: F.triplet_margin_with_distance_loss(a[0], a[1], a[2], distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y), margin=0.5, swap=True, reduction=r), REDUCTIONS),
    "hinge_embedding": (lambda: [leaf(torch.randn(3, 4)), pm1(3, 4)], lambda a, r: F.hinge_embedding_loss(a[0], a[1], margin=0.5, reduction=r), REDUCTIONS),
    "soft_margin": (lambda: [leaf(torch.randn(3, 4)), pm1(3, 4)], lambda a, r: F.soft_margin_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "multilabel_soft_margin": (lambda: [leaf(torch.randn(3, 4)), torch.randint(0, 2, (3, 4)).float()], lambda a, r: F.multilabel_soft_margin_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "multilabel_soft_margin_weight": (lambda: [leaf(torch.randn(3, 4)), torch.randint(0, 2, (3, 4)).float(), torch.rand(4)], lambda a, r: F.multilabel_soft_margin_loss(a[0], a[1], weight=a[2], reduction=r), REDUCTIONS),
    "multilabel_margin": (lambda: [leaf(torch.randn(3, 4)), torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2]])], lambda a, r: F.multilabel_margin_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "multi_margin": (lambda: [leaf(torch.randn(4, 5)), ints(0, 4, 2, 2)], lambda a, r: F.multi_margin_loss(a[0], a[1], reduction=r), REDUCTIONS),
    "multi_margin_p2_weight": (lambda: [leaf(torch.randn(4, 5)), ints(1, 3, 2, 0), torch.rand(5)], lambda a, r: F.multi_margin_loss(a[0], a[1], p=2, margin=0.5, weight=a[2], reduction=r), REDUCTIONS),
    # sequences: variable input and target lengths, padded and concatenated targets
    "ctc": (lambda: [leaf(torch.randn(8, 3, 5).log_softmax(2)), torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 1, 0]]), ints(8, 7, 6), ints(4, 2, 3)],
            lambda a, r: F.ctc_loss(a[0], a[1], a[2], a[3], reduction=r), REDUCTIONS),
    "ctc_concatenated_blank": (lambda: [leaf(torch.randn(7, 2, 4).log_softmax(2)), ints(0, 2, 1, 1, 0), ints(7, 5), ints(3, 2)],
                               lambda a, r: F.ctc_loss(a[0], a[1], a[2], a[3], blank=3, reduction=r), REDUCTIONS),
    "ctc_zero_infinity": (lambda: [leaf(torch.randn(6, 2, 4).log_softmax(2)), torch.tensor([[1, 1, 1, 2], [2, 3, 0, 0]]), ints(3, 6), ints(4, 2)],
                          lambda a, r: F.ctc_loss(a[0], a[1], a[2], a[3], reduction=r, zero_infinity=True), REDUCTIONS),
    "ctc_unbatched": (lambda: [leaf(torch.randn(6, 4).log_softmax(1)), ints(1, 2, 2), torch.tensor(6), torch.tensor(3)],
                      lambda a, r: F.ctc_loss(a[0], a[1], a[2], a[3], reduction=r), REDUCTIONS),
    # linear and distance functions (no reduction)
    "linear": (lambda: [leaf(torch.randn(2, 3, 4)), leaf(torch.randn(5, 4)), leaf(torch.randn(5))], lambda a, r: F.linear(a[0], a[1], a[2]), ["-"]),
    "linear_nobias": (lambda: [leaf(torch.randn(3, 4)), leaf(torch.randn(2, 4))], lambda a, r: F.linear(a[0], a[1]), ["-"]),
    "bilinear": (lambda: [leaf(torch.randn(3, 2)), leaf(torch.randn(3, 4)), leaf(torch.randn(5, 2, 4)), leaf(torch.randn(5))], lambda a, r: F.bilinear(a[0], a[1], a[2], a[3]), ["-"]),
    "cosine_similarity": (lambda: [leaf(torch.randn(3, 5)), leaf(torch.randn(1, 5))], lambda a, r: F.cosine_similarity(a[0], a[1]), ["-"]),
    "cosine_similarity_dim0": (lambda: [leaf(torch.randn(4, 3)), leaf(torch.randn(4, 3))], lambda a, r: F.cosine_similarity(a[0], a[1], dim=0, eps=1e-3), ["-"]),
    "pairwise_distance": (lambda: [leaf(torch.randn(3, 5)), leaf(torch.randn(3, 5))], lambda a, r: F.pairwise_distance(a[0], a[1]), ["-"]),
    "pairwise_distance_p1": (lambda: [leaf(torch.randn(3, 5)), leaf(torch.randn(3, 5))], lambda a, r: F.pairwise_distance(a[0], a[1], p=1.0, eps=1e-3, keepdim=True), ["-"]),
    "pdist": (lambda: [leaf(torch.randn(4, 3))], lambda a, r: F.pdist(a[0]), ["-"]),
    "pdist_p3": (lambda: [leaf(torch.randn(4, 3))], lambda a, r: F.pdist(a[0], p=3.0), ["-"]),
}


def values_of(t):
    if t.dtype in (torch.int64, torch.int32):
        return [int(x) for x in t.reshape(-1).tolist()]
    return flat(t)


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def run_case(v_inputs, v_results, v_rerrors, index, name):
    make, loss, reductions = CASES[name]
    torch.manual_seed(index)
    args = make()
    v_inputs[name] = {
        "values": [values_of(a) for a in args],
        "shapes": [list(a.shape) for a in args],
        "dtypes": [dtype_name(a) for a in args],
        "grad": [a.requires_grad for a in args],
    }
    for red in reductions:
        for a in args:
            a.grad = None
        out = loss(args, red)
        (out * upstream(out)).sum().backward()
        v_results[name + "/" + red] = {
            "out": flat(out),
            "out_shape": list(out.shape),
            "grads": [flat(a.grad) for a in args if a.requires_grad],
        }
    if reductions != ["-"]:
        v_rerrors[name] = error_text(lambda: loss(args, "bogus"))


# Module forms: name -> (input case, make(args), call(module, args)).
MODULES = {
    "L1Loss": ("l1", lambda a: nn.L1Loss(), lambda m, a: m(a[0], a[1])),
    "MSELoss": ("mse", lambda a: nn.MSELoss(reduction="sum"), lambda m, a: m(a[0], a[1])),
    "MSELoss_legacy": ("mse", lambda a: nn.MSELoss(size_average=False), lambda m, a: m(a[0], a[1])),
    "SmoothL1Loss": ("smooth_l1", lambda a: nn.SmoothL1Loss(beta=0.25), lambda m, a: m(a[0], a[1])),
    "HuberLoss": ("huber", lambda a: nn.HuberLoss(reduction="none", delta=0.5), lambda m, a: m(a[0], a[1])),
    "CrossEntropyLoss": ("cross_entropy_weight", lambda a: nn.CrossEntropyLoss(weight=a[2], ignore_index=4, label_smoothing=0.1), lambda m, a: m(a[0], a[1])),
    "CrossEntropyLoss_plain": ("cross_entropy", lambda a: nn.CrossEntropyLoss(), lambda m, a: m(a[0], a[1])),
    "NLLLoss": ("nll_weight_ignore", lambda a: nn.NLLLoss(a[2], None, 2), lambda m, a: m(a[0], a[1])),
    "BCELoss": ("bce_weight", lambda a: nn.BCELoss(weight=a[2], reduction="sum"), lambda m, a: m(a[0], a[1])),
    "BCEWithLogitsLoss": ("bce_logits_weights", lambda a: nn.BCEWithLogitsLoss(weight=a[2], pos_weight=a[3]), lambda m, a: m(a[0], a[1])),
    "BCEWithLogitsLoss_pos": ("bce_logits_weights", lambda a: nn.BCEWithLogitsLoss(pos_weight=a[3]), lambda m, a: m(a[0], a[1])),
    "KLDivLoss": ("kl_div_log_target", lambda a: nn.KLDivLoss(reduction="batchmean", log_target=True), lambda m, a: m(a[0], a[1])),
    "PoissonNLLLoss": ("poisson_nll_full", lambda a: nn.PoissonNLLLoss(log_input=False, full=True), lambda m, a: m(a[0], a[1])),
    "GaussianNLLLoss": ("gaussian_nll_homoscedastic", lambda a: nn.GaussianNLLLoss(full=True, eps=0.2), lambda m, a: m(a[0], a[1], a[2])),
    "CosineEmbeddingLoss": ("cosine_embedding", lambda a: nn.CosineEmbeddingLoss(margin=-0.1), lambda m, a: m(a[0], a[1], a[2])),
    "MarginRankingLoss": ("margin_ranking", lambda a: nn.MarginRankingLoss(margin=0.1, reduction="none"), lambda m, a: m(a[0], a[1], a[2])),
    "TripletMarginLoss": ("triplet_margin", lambda a: nn.TripletMarginLoss(margin=0.5, p=3.0, swap=True), lambda m, a: m(a[0], a[1], a[2])),
    "CTCLoss": ("ctc", lambda a: nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True), lambda m, a: m(a[0], a[1], a[2], a[3])),
    "HingeEmbeddingLoss": ("hinge_embedding", lambda a: nn.HingeEmbeddingLoss(margin=2.0), lambda m, a: m(a[0], a[1])),
    "SoftMarginLoss": ("soft_margin", lambda a: nn.SoftMarginLoss(), lambda m, a: m(a[0], a[1])),
    "MultiLabelMarginLoss": ("multilabel_margin", lambda a: nn.MultiLabelMarginLoss(), lambda m, a: m(a[0], a[1])),
    "MultiLabelSoftMarginLoss": ("multilabel_soft_margin_weight", lambda a: nn.MultiLabelSoftMarginLoss(weight=a[2]), lambda m, a: m(a[0], a[1])),
    "MultiMarginLoss": ("multi_margin_p2_weight", lambda a: nn.MultiMarginLoss(p=2, margin=0.7, weight=a[2]), lambda m, a: m(a[0], a[1])),
}


def run_module(v_modules, name):
    case, make, call = MODULES[name]
    torch.manual_seed(CASE_NAMES.index(case))
    args = CASES[case][0]()
    m = make(args)
    out = call(m, args)
    (out * upstream(out)).sum().backward()
    v_modules[name] = {
        "repr": repr(m),
        "state_keys": list(m.state_dict().keys()),
        "buffers": [flat(b) for b in m.state_dict().values()],
        "out": flat(out),
        "out_shape": list(out.shape),
        "grads": [flat(a.grad) for a in args if a.requires_grad],
    }


CASE_NAMES = list(CASES)


def errors():
    """Bad input: the text PyTorch (or ATen under it) raises."""
    torch.manual_seed(100)
    x = torch.randn(3, 5)
    e = {}
    e["cross_entropy_float_target"] = error_text(lambda: F.cross_entropy(x, torch.randn(3)))
    e["cross_entropy_batch"] = error_text(lambda: F.cross_entropy(x, ints(1, 2)))
    e["cross_entropy_bounds"] = error_text(lambda: F.cross_entropy(x, ints(1, 2, 7)))
    e["cross_entropy_weight_size"] = error_text(lambda: F.cross_entropy(x, ints(1, 2, 3), weight=torch.ones(4)))
    e["cross_entropy_probs_shape"] = error_text(lambda: F.cross_entropy(x, torch.rand(3, 4)))
    e["nll_float_target"] = error_text(lambda: F.nll_loss(x, torch.zeros(3)))
    e["nll_batch"] = error_text(lambda: F.nll_loss(x, ints(0, 1, 2, 3)))
    e["bce_size"] = error_text(lambda: F.binary_cross_entropy(torch.rand(3, 1), torch.rand(3)))
    e["bce_weight_shape"] = error_text(lambda: F.binary_cross_entropy(torch.rand(2, 4), torch.rand(2, 4), weight=torch.rand(3)))
    e["bce_logits_size"] = error_text(lambda: F.binary_cross_entropy_with_logits(torch.rand(3, 1), torch.rand(3)))
    e["mse_mismatch"] = error_text(lambda: F.mse_loss(torch.rand(3, 2), torch.rand(4)))
    e["mse_weight_size"] = error_text(lambda: F.mse_loss(torch.rand(3, 2), torch.rand(3, 2), weight=torch.rand(2)))
    e["margin_ranking_dims"] = error_text(lambda: F.margin_ranking_loss(torch.rand(3), torch.rand(3, 1), torch.ones(3)))
    e["triplet_margin"] = error_text(lambda: F.triplet_margin_loss(x, x, x, margin=-1.0))
    e["triplet_distance_dims"] = error_text(lambda: F.triplet_margin_with_distance_loss(x, x, x[0]))
    e["multi_margin_p"] = error_text(lambda: F.multi_margin_loss(x, ints(0, 1, 2), p=3))
    e["multi_margin_weight"] = error_text(lambda: F.multi_margin_loss(x, ints(0, 1, 2), weight=torch.ones(5, 1)))
    e["gaussian_negative"] = error_text(lambda: F.gaussian_nll_loss(x, x, -torch.ones(3, 5)))
    e["gaussian_negative_float"] = error_text(lambda: F.gaussian_nll_loss(x, x, -1.0))
    e["gaussian_var_size"] = error_text(lambda: F.gaussian_nll_loss(x, x, torch.ones(2, 5)))
    e["ctc_input_length"] = error_text(lambda: F.ctc_loss(torch.randn(5, 2, 4).log_softmax(2), torch.tensor([[1, 2], [1, 1]]), ints(6, 5), ints(2, 2)))
    e["ctc_target_length"] = error_text(lambda: F.ctc_loss(torch.randn(5, 2, 4).log_softmax(2), torch.tensor([[1, 2], [1, 1]]), ints(5, 5), ints(3, 2)))
    e["module_multi_margin_p"] = error_text(lambda: nn.MultiMarginLoss(p=3))
    e["module_multi_margin_weight"] = error_text(lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2)))
    e["module_triplet_margin"] = error_text(lambda: nn.TripletMarginLoss(margin=-1.0))
    return e


def size_warnings():
    """The UserWarning each regression loss gives for a target of another size (none for the same size)."""
    calls = {
        "mse_loss": lambda a, b: F.mse_loss(a, b),
        "l1_loss": lambda a, b: F.l1_loss(a, b),
        "smooth_l1_loss": lambda a, b: F.smooth_l1_loss(a, b),
        "huber_loss": lambda a, b: F.huber_loss(a, b),
        "MSELoss": lambda a, b: nn.MSELoss()(a, b),
    }
    out = {}
    for name, call in calls.items():
        for case, (a, b) in {"broadcast": (torch.rand(8, 1), torch.rand(8)), "same": (torch.rand(8), torch.rand(8)),
                             "scalar_target": (torch.rand(2, 3), torch.rand(()))}.items():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                call(a, b)
            out[f"{name}/{case}"] = [str(w.message) for w in caught]
    return out


def main():
    warnings.simplefilter("ignore")
    inputs, results, rerrors, modules = {}, {}, {}, {}
    for i, name in enumerate(CASE_NAMES):
        run_case(inputs, results, rerrors, i, name)
    for name in MODULES:
        run_module(modules, name)
    path = os.path.join(HERE, "loss_fixtures.spl")
    write(path, __file__, {"inputs": inputs, "results": results, "reduction_errors": rerrors,
                           "errors": errors(), "modules": modules, "size_warnings": size_warnings()})


if __name__ == "__main__":
    main()
