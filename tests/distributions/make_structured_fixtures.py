#!/usr/bin/env python3
"""Writes tests/distributions/structured_fixtures.spl: torch.distributions' transforms (Abs,
Power, Tanh, Softplus, CumulativeDistribution, Softmax, StickBreaking, LowerCholesky,
PositiveDefinite, CorrCholesky, Compose, identity_transform, Independent, Reshape, Cat, Stack,
inverses), biject_to / transform_to, and the structured distributions, run by Python PyTorch
on the pinned wheel.

    .venv/bin/python tests/distributions/make_structured_fixtures.py

`ref_transform_cases[name]`: `spec` (how to build it: ["Tanh"], ["Power", e],
["Compose", [specs]], ["Inv", spec], ... as `transform` below), `x` and its `dtype`; then
repr, y = t(x), x_back = t.inv(y), ladj (nil: NotImplementedError), forward_shape /
inverse_shape, domain / codomain (repr and event_dim), sign (nil: none) and x_grad, the
gradient of (y * upstream(y)).sum() in x.
`ref_registry`: per constraint spec, repr(biject_to(c)) and repr(transform_to(c)) (or the
error text), and transform_to(c)(x) for the registry's `x`.
Distribution cases (`ref_cases`) are as make_distributions_fixtures.py's.
"""
import os
import sys
import warnings

import torch
from torch.distributions import Normal, constraints, biject_to, transform_to
from torch.distributions import transforms as T
from torch.distributions.utils import vec_to_tril_matrix

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402
import make_distributions_fixtures as shared  # noqa: E402  (its `case` and `build`)
from torch.distributions import (RelaxedBernoulli, LogisticNormal, OneHotCategoricalStraightThrough,  # noqa: E402
                                 LowRankMultivariateNormal, MultivariateNormal, MixtureSameFamily, Categorical, Independent,
                                 LKJCholesky, Wishart, kl_divergence)
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli  # noqa: E402

shared.CLASSES.update({"RelaxedBernoulli": RelaxedBernoulli, "LogitRelaxedBernoulli": LogitRelaxedBernoulli,
                       "LogisticNormal": LogisticNormal, "OneHotCategoricalStraightThrough": OneHotCategoricalStraightThrough,
                       "LowRankMultivariateNormal": LowRankMultivariateNormal, "MultivariateNormal": MultivariateNormal,
                       "LKJCholesky": LKJCholesky, "Wishart": Wishart})

DTYPES = {"float32": torch.float32, "float64": torch.float64}


def transform(spec):
    """A transform from a spec list (the spec's `transform` reads the same lists)."""
    k = spec[0]
    simple = {"Tanh": T.TanhTransform, "Softplus": T.SoftplusTransform, "Abs": T.AbsTransform, "Exp": T.ExpTransform,
              "Sigmoid": T.SigmoidTransform, "Softmax": T.SoftmaxTransform, "StickBreaking": T.StickBreakingTransform,
              "LowerCholesky": T.LowerCholeskyTransform, "PositiveDefinite": T.PositiveDefiniteTransform,
              "CorrCholesky": T.CorrCholeskyTransform}
    if k in simple:
        return simple[k]()
    if k == "Identity":
        return T.identity_transform
    if k == "Power":
        return T.PowerTransform(torch.tensor(spec[1]) if isinstance(spec[1], list) else spec[1])
    if k == "Affine":
        return T.AffineTransform(spec[1], spec[2], event_dim=spec[3])
    if k == "CDF":
        return T.CumulativeDistributionTransform(Normal(spec[1], spec[2]))
    if k == "Compose":
        return T.ComposeTransform([transform(s) for s in spec[1]])
    if k == "Inv":
        return transform(spec[1]).inv
    if k == "Independent":
        return T.IndependentTransform(transform(spec[1]), spec[2])
    if k == "Reshape":
        return T.ReshapeTransform(torch.Size(spec[1]), torch.Size(spec[2]))
    if k == "Cat":
        return T.CatTransform([transform(s) for s in spec[1]], spec[2], spec[3])
    if k == "Stack":
        return T.StackTransform([transform(s) for s in spec[1]], spec[2])
    raise ValueError(k)

shared_build = shared.build
# Wishart's warnings (its retry loop warns on every draw); lib.torch emits none.
warnings.filterwarnings("ignore", message="Singular sample detected|Low df values detected")


def build(cls, args, dtype, requires_grad=False):
    """make_distributions_fixtures.build, and MixtureSameFamily from {"mixture": Categorical's
    args, "component_class", "component_args", "reinterpreted": Independent's ndims or 0}."""
    if cls != "MixtureSameFamily":
        return shared_build(cls, args, dtype, requires_grad)
    mix, t1 = shared_build("Categorical", args["mixture"], dtype, requires_grad)
    comp, t2 = shared_build(args["component_class"], args["component_args"], dtype, requires_grad)
    if args["reinterpreted"]:
        comp = Independent(comp, args["reinterpreted"])
    return MixtureSameFamily(mix, comp), t1 + t2


shared.build = build


def attempt(fn):
    try:
        return fn()
    except NotImplementedError:
        return None


def transform_case(v, name, spec, x, dtype="float32"):
    c = v.setdefault("transform_cases", {}).setdefault(name, {})
    c["spec"] = spec
    c["x"] = x
    c["dtype"] = dtype
    t = transform(spec)
    xt = torch.tensor(x, dtype=DTYPES[dtype], requires_grad=True)
    y = t(xt)
    c["repr"] = repr(t)
    c["y"] = flat(y)
    c["y_shape"] = list(y.shape)
    c["x_back"] = flat(t.inv(y.detach()))
    ladj = attempt(lambda: t.log_abs_det_jacobian(xt.detach(), y.detach()))
    c["ladj"] = None if ladj is None else flat(ladj)
    c["ladj_shape"] = None if ladj is None else list(ladj.shape)
    c["forward_shape"] = list(t.forward_shape(xt.shape))
    c["inverse_shape"] = list(t.inverse_shape(y.shape))
    c["domain"] = repr(t.domain)
    c["codomain"] = repr(t.codomain)
    c["domain_event_dim"] = t.domain.event_dim
    c["codomain_event_dim"] = t.codomain.event_dim
    s = attempt(lambda: t.sign)
    c["sign"] = None if s is None else (flat(s) if isinstance(s, torch.Tensor) else [float(s)])
    (y * upstream(y)).sum().backward()
    c["x_grad"] = flat(xt.grad)


def constraint(spec):
    k = spec[0]
    if k == "independent":
        return constraints.independent(constraint(spec[1]), spec[2])
    if k == "cat":
        return constraints.cat([constraint(s) for s in spec[1]], spec[2], spec[3])
    if k == "stack":
        return constraints.stack([constraint(s) for s in spec[1]], spec[2])
    if len(spec) > 1:
        return getattr(constraints, k)(*spec[1:])
    return getattr(constraints, k)


def wishart_case(v, name, args, values, bad_args, bad_value, seed, dtype="float32"):
    """shared.case for Wishart, whose rsample has no usable gradient in PyTorch 2.15: its retry
    loop (which runs on every draw) writes in place into the mask it indexed with, and backward
    fails. The case records rsample's values and that error (rsample_grad_error)."""
    Wishart.has_rsample = False
    try:
        shared.case(v, name, "Wishart", args, values, bad_args, bad_value, seed, dtype=dtype)
    finally:
        Wishart.has_rsample = True
    c = v["cases"][name]
    c["has_rsample"] = True
    dg, made = build("Wishart", args, dtype, requires_grad=True)
    torch.manual_seed(seed + 2)
    x = dg.rsample([3])
    c["rsample"] = flat(x)
    c["rsample_grads"] = None
    c["rsample_grad_error"] = error_text(lambda: (x * upstream(x)).sum().backward())


def made_mixture_support(build):
    mix, _ = build("Categorical", {"probs": [0.5, 0.5]}, "float32")
    return MixtureSameFamily(mix, Independent(Normal(torch.zeros(2, 3), 1.0), 1)).support


def main():
    v = {}
    x23 = [[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]]
    pos23 = [[0.5, 1.0, 2.0], [0.1, 0.2, 3.0]]
    transform_case(v, "tanh", ["Tanh"], x23)
    transform_case(v, "tanh_f64", ["Tanh"], [0.25, -4.0], dtype="float64")
    transform_case(v, "power", ["Power", 2.5], pos23)
    transform_case(v, "power_tensor", ["Power", [1.0, -2.0, 0.5]], pos23)
    transform_case(v, "softplus", ["Softplus"], [0.5, -3.0, 25.0])
    transform_case(v, "abs", ["Abs"], x23)
    transform_case(v, "cdf", ["CDF", 0.5, 2.0], x23)
    transform_case(v, "softmax", ["Softmax"], x23)
    transform_case(v, "stick_breaking", ["StickBreaking"], x23)
    transform_case(v, "lower_cholesky", ["LowerCholesky"], [[[0.5, 1.0], [-1.0, 2.0]], [[0.1, 0.2], [0.3, -0.4]]])
    transform_case(v, "positive_definite", ["PositiveDefinite"], [[0.5, 1.0], [-1.0, 2.0]])
    transform_case(v, "corr_cholesky", ["CorrCholesky"], [[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]])
    transform_case(v, "corr_cholesky_f64", ["CorrCholesky"], [0.3, -0.7, 1.1, 0.4, -0.2, 0.9], dtype="float64")
    transform_case(v, "compose", ["Compose", [["Exp"], ["Affine", 1.0, 2.0, 0]]], x23)
    transform_case(v, "compose_event", ["Compose", [["Affine", 0.5, -1.5, 0], ["StickBreaking"]]], x23)
    transform_case(v, "compose_reshape", ["Compose", [["Reshape", [3], [3, 1]], ["Exp"]]], x23)
    transform_case(v, "identity", ["Identity"], x23)
    transform_case(v, "independent", ["Independent", ["Exp"], 1], x23)
    transform_case(v, "reshape", ["Reshape", [3], [3, 1]], x23)
    transform_case(v, "cat", ["Cat", [["Exp"], ["Identity"], ["Tanh"]], 1, [1, 1, 1]], x23)
    transform_case(v, "cat_rows", ["Cat", [["Exp"], ["Tanh"]], 0, [1, 1]], x23)
    transform_case(v, "cat_event", ["Cat", [["Independent", ["Exp"], 1], ["Independent", ["Tanh"], 1]], 0, [1, 1]], x23)
    transform_case(v, "cat_event_last", ["Cat", [["Independent", ["Exp"], 1], ["Independent", ["Tanh"], 1]], -1, [1, 2]], x23)
    transform_case(v, "stack", ["Stack", [["Exp"], ["Tanh"]], 0], x23)
    transform_case(v, "stack_cols", ["Stack", [["Exp"], ["Softplus"], ["Tanh"]], 1], x23)
    transform_case(v, "inverse", ["Inv", ["Tanh"]], [0.5, -0.25, 0.9])
    transform_case(v, "inverse_compose", ["Inv", ["Compose", [["Exp"], ["Affine", 1.0, 2.0, 0]]]], [2.0, 3.0, 10.0])
    transform_case(v, "inverse_stick", ["Inv", ["StickBreaking"]], [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])

    v["reshape_error"] = error_text(lambda: T.ReshapeTransform(torch.Size([3]), torch.Size([2])))
    v["reshape_shape_error"] = error_text(lambda: T.ReshapeTransform(torch.Size([3]), torch.Size([3, 1])).forward_shape(torch.Size([2, 4])))
    v["stick_shape_error"] = error_text(lambda: T.StickBreakingTransform().forward_shape(torch.Size([])))
    v["corr_shape_error"] = error_text(lambda: T.CorrCholeskyTransform().forward_shape(torch.Size([4])))
    v["corr_square_error"] = error_text(lambda: T.CorrCholeskyTransform().inverse_shape(torch.Size([2, 3])))
    v["tril_error"] = error_text(lambda: vec_to_tril_matrix(torch.zeros(4)))
    v["cat_lengths_error"] = error_text(lambda: T.CatTransform([T.ExpTransform()], 0, [1, 2]))
    v["cat_size_error"] = error_text(lambda: T.CatTransform([T.ExpTransform(), T.ExpTransform()], 0, [1, 2])(torch.zeros(2)))
    v["stack_size_error"] = error_text(lambda: T.StackTransform([T.ExpTransform()], 1)(torch.zeros(2, 3)))
    v["independent_dims_error"] = error_text(lambda: T.IndependentTransform(T.ExpTransform(), 2)(torch.zeros(3)))
    v["independent_constraint_error"] = error_text(lambda: constraints.independent(constraints.simplex, 1).check(torch.tensor([0.5, 0.5])))
    v["tril_vec"] = flat(vec_to_tril_matrix(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])))
    v["tril_vec_below"] = flat(vec_to_tril_matrix(torch.tensor([1.0, 2.0, 3.0]), diag=-1))

    specs = [["real"], ["positive"], ["nonnegative"], ["greater_than", 2.0], ["greater_than_eq", -1.0], ["less_than", 1.5],
             ["unit_interval"], ["interval", 1.0, 3.0], ["simplex"], ["real_vector"], ["independent", ["positive"], 2],
             ["lower_cholesky"], ["positive_definite"], ["corr_cholesky"], ["boolean"], ["one_hot"], ["nonnegative_integer"],
             ["cat", [["positive"], ["real"]], 1, [1, 2]], ["stack", [["unit_interval"], ["real"]], 0]]
    x = torch.tensor([[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]])
    reg = []
    for s in specs:
        c = constraint(s)
        row = {"spec": s, "repr": repr(c), "event_dim": c.event_dim}
        for which, registry in [("biject_to", biject_to), ("transform_to", transform_to)]:
            try:
                t = registry(c)
                row[which] = repr(t)
                xs = x[:, :2].reshape(2, 2, 1).expand(2, 2, 2).contiguous() if s[0] in ("lower_cholesky", "positive_definite") else x
                row[which + "_y"] = flat(t(xs))
                row[which + "_check"] = bool(c.check(t(xs)).all())
            except NotImplementedError as e:
                row[which] = None
                row[which + "_error"] = str(e)
        reg.append(row)
    v["registry"] = reg
    v["registry_x"] = flat(x)

    case = shared.case
    nan = float("nan")
    case(v, "relaxed_bernoulli", "RelaxedBernoulli", {"temperature": [0.5], "probs": [0.1, 0.6, 0.9]}, [0.2, 0.5, 0.9],
         {"temperature": [0.5], "probs": [0.1, 1.5]}, [1.5, 0.5, 0.2], seed=50)
    case(v, "relaxed_bernoulli_logits", "RelaxedBernoulli", {"temperature": [2.0], "logits": [[-1.0, 2.0], [0.0, 0.5]]}, [0.3, 0.7],
         {"temperature": [2.0], "logits": [nan]}, [-0.1, 0.5], seed=51)
    case(v, "logit_relaxed_bernoulli", "LogitRelaxedBernoulli", {"temperature": [0.7], "probs": [0.2, 0.8]}, [-1.0, 2.0],
         {"temperature": [0.7], "probs": [-0.2, 0.5]}, [nan, 0.0], seed=52)
    case(v, "logistic_normal", "LogisticNormal", {"loc": [0.0, 1.0, -0.5], "scale": [1.0, 0.5, 2.0]}, [0.2, 0.3, 0.1, 0.4],
         {"loc": [0.0, 1.0], "scale": [1.0, -0.5]}, [0.5, 0.6, 0.1, -0.2], seed=53)
    case(v, "logistic_normal_c", "LogisticNormal", {"loc": [0.5, 0.0, 0.2], "scale": [1.5, 1.0, 1.0]}, [0.2, 0.3, 0.1, 0.4],
         {"loc": [0.0], "scale": [-1.0]}, [0.5, 0.6, 0.1, -0.2], seed=59)
    case(v, "logistic_normal_b", "LogisticNormal", {"loc": [[0.5, -1.0, 0.0], [1.0, 1.0, 1.0]], "scale": [2.0, 1.0, 0.5]}, [0.25, 0.25, 0.25, 0.25],
         {"loc": [nan], "scale": [1.0]}, [0.5, 0.6, 0.1, 0.2], seed=54, dtype="float64")
    case(v, "logistic_normal_scalar", "LogisticNormal", {"loc": 0.5, "scale": 1.5}, [0.3, 0.7],
         {"loc": 0.5, "scale": 0.0}, [0.5, 0.6], seed=55)
    case(v, "one_hot_st", "OneHotCategoricalStraightThrough", {"probs": [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]}, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
         {"probs": [0.2, -0.8]}, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], seed=56)
    case(v, "one_hot_st_logits", "OneHotCategoricalStraightThrough", {"logits": [0.5, -1.0, 2.0, 0.0]}, [0.0, 0.0, 0.0, 1.0],
         {"logits": [nan, 0.0]}, [0.5, 0.5, 0.0, 0.0], seed=57)
    case(v, "one_hot", "OneHotCategorical", {"probs": [[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]]}, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
         {"probs": [0.2, -0.8]}, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], seed=58)
    case(v, "lowrank", "LowRankMultivariateNormal", {"loc": [0.5, -1.0, 0.0], "cov_factor": [[1.0, 0.5], [0.0, -1.0], [0.3, 0.2]], "cov_diag": [1.0, 0.5, 2.0]},
         [0.2, 0.3, 0.1], {"loc": [nan, 0.0, 0.0], "cov_factor": [[1.0], [0.0], [0.5]], "cov_diag": [1.0, 0.5, 2.0]}, [0.5, nan, 0.1], seed=60)
    case(v, "lowrank_batch", "LowRankMultivariateNormal", {"loc": [[0.5, -1.0], [1.0, 2.0]], "cov_factor": [[1.0], [0.5]], "cov_diag": [[1.0, 0.5], [2.0, 0.1]]},
         [[0.2, 0.3], [1.0, -1.0]], {"loc": [0.0, 0.0], "cov_factor": [[1.0], [0.0]], "cov_diag": [1.0, -0.5]}, [[0.5, nan]], seed=61, dtype="float64")
    case(v, "lowrank_b", "LowRankMultivariateNormal", {"loc": [0.0, 1.0, 0.5], "cov_factor": [[0.2], [0.4], [-0.6]], "cov_diag": [0.5, 1.5, 1.0]},
         [0.2, 0.3, 0.1], {"loc": [0.0, 0.0, 0.0], "cov_factor": [[1.0], [0.0], [0.5]], "cov_diag": [1.0, 0.0, 2.0]}, [0.5, 0.0, nan], seed=62)
    case(v, "mvn3", "MultivariateNormal", {"loc": [[0.0, 1.0, 2.0], [1.0, -1.0, 0.0]], "covariance_matrix": [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 1.5]]},
         [0.5, 0.2, 0.1], {"loc": [0.0, 1.0], "covariance_matrix": [[1.0, 2.0], [2.0, 1.0]]}, [nan, 0.2, 0.0], seed=63)
    case(v, "mixture", "MixtureSameFamily", {"mixture": {"probs": [0.2, 0.5, 0.3]}, "component_class": "Normal",
         "component_args": {"loc": [-1.0, 0.0, 2.0], "scale": [0.5, 1.0, 2.0]}, "reinterpreted": 0}, [0.3, -1.0],
         {"mixture": {"probs": [0.5, 0.5]}, "component_class": "Normal", "component_args": {"loc": [0.0, 0.0, 1.0], "scale": [1.0, 1.0, 1.0]}, "reinterpreted": 0},
         [nan], seed=64, cdf=True)
    case(v, "mixture_batch", "MixtureSameFamily", {"mixture": {"logits": [[0.0, 1.0], [2.0, -1.0]]}, "component_class": "Normal",
         "component_args": {"loc": [[[0.0, 1.0], [1.0, 2.0]], [[-1.0, 0.5], [0.0, 0.0]]], "scale": [1.0, 2.0]}, "reinterpreted": 1},
         [[0.5, 0.5], [1.0, -1.0]], {"mixture": {"logits": [[0.0, 1.0], [2.0, -1.0], [0.0, 0.0]]}, "component_class": "Normal",
         "component_args": {"loc": [[[0.0, 1.0], [1.0, 2.0]], [[-1.0, 0.5], [0.0, 0.0]]], "scale": [1.0, 2.0]}, "reinterpreted": 1},
         [[0.5, nan], [1.0, -1.0]], seed=65, dtype="float64")
    case(v, "mixture_gamma", "MixtureSameFamily", {"mixture": {"probs": [[0.7, 0.3], [0.4, 0.6]]}, "component_class": "Gamma",
         "component_args": {"concentration": [[1.0, 2.0], [3.0, 0.5]], "rate": [1.0, 2.0]}, "reinterpreted": 0}, [0.5, 2.0],
         {"mixture": {"probs": [[0.7, 0.3], [0.5, 0.5], [0.1, 0.9]]}, "component_class": "Gamma",
          "component_args": {"concentration": [[1.0, 2.0], [3.0, 0.5]], "rate": [1.0, 2.0]}, "reinterpreted": 0}, [-0.5, 2.0], seed=66, cdf=True)
    v["mixture_errors"] = [error_text(lambda: MixtureSameFamily(Normal(0.0, 1.0), Normal(torch.zeros(2), 1.0)))]
    v["mixture_support"] = repr(made_mixture_support(build))
    l3 = [[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]]
    case(v, "lkj", "LKJCholesky", {"dim": 3, "concentration": 0.5}, l3,
         {"dim": 3, "concentration": -1.0}, [[1.0, 0.0, 0.0], [0.6, 0.9, 0.0], [0.0, 0.6, 0.8]], seed=67)
    case(v, "lkj_batch", "LKJCholesky", {"dim": 2, "concentration": [1.0, 2.5]}, [[1.0, 0.0], [0.6, 0.8]],
         {"dim": 2, "concentration": [1.0, 0.0]}, [[1.0, 0.0], [0.6, -0.8]], seed=68, dtype="float64")
    v["lkj_dim_error"] = error_text(lambda: LKJCholesky(1))
    pd2 = [[1.0, 0.2], [0.2, 0.5]]
    wishart_case(v, "wishart", {"df": 4.0, "covariance_matrix": [[2.0, 0.5], [0.5, 1.0]]}, pd2,
         {"df": 4.0, "covariance_matrix": [[1.0, 2.0], [2.0, 1.0]]}, [[1.0, 0.2], [0.3, 0.5]], seed=70)
    wishart_case(v, "wishart_batch", {"df": [3.0, 5.5], "scale_tril": [[1.0, 0.0], [0.3, 0.5]]}, [pd2, [[2.0, -0.5], [-0.5, 1.0]]],
         {"df": [3.0, 0.5], "scale_tril": [[1.0, 0.0], [0.3, 0.5]]}, [[1.0, nan], [0.2, 0.5]], seed=71, dtype="float64")
    wishart_case(v, "wishart_precision", {"df": [6.0], "precision_matrix": [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 1.5]]},
         [[1.0, 0.2, 0.0], [0.2, 0.5, 0.1], [0.0, 0.1, 2.0]], {"df": [6.0], "scale_tril": [[1.0, 0.0, 0.0], [0.3, -0.5, 0.0], [0.0, 0.0, 1.0]]},
         [[1.0, 0.2, 0.0], [0.2, -0.5, 0.1], [0.0, 0.1, 2.0]], seed=72)
    wishart_case(v, "wishart_precision_2", {"df": 3.5, "precision_matrix": [[1.0, 0.3], [0.3, 2.0]]}, pd2,
                 {"df": 3.5, "precision_matrix": [[1.0, 0.3], [0.2, 2.0]]}, [[1.0, 0.2], [0.2, -0.5]], seed=73)
    v["wishart_errors"] = [error_text(lambda: Wishart(3.0)),
                           error_text(lambda: Wishart(3.0, covariance_matrix=torch.ones(2))),
                           error_text(lambda: Wishart(1.0, covariance_matrix=torch.eye(3))),
                           error_text(lambda: Wishart(2, scale_tril=torch.eye(3)))]
    # scale_tril, covariance_matrix, precision_matrix (keys "case|name")
    v["lowrank_matrices"] = {k + "|" + m: flat(getattr(shared.build("LowRankMultivariateNormal", v["cases"][k]["args"], v["cases"][k]["dtype"])[0], m))
                             for k in ["lowrank", "lowrank_batch"] for m in ["scale_tril", "covariance_matrix", "precision_matrix"]}
    z = torch.zeros(3)
    v["lowrank_errors"] = [error_text(lambda: LowRankMultivariateNormal(torch.tensor(0.0), torch.ones(1, 1), torch.ones(1))),
                           error_text(lambda: LowRankMultivariateNormal(z, torch.ones(3), z + 1)),
                           error_text(lambda: LowRankMultivariateNormal(z, torch.ones(2, 1), z + 1)),
                           error_text(lambda: LowRankMultivariateNormal(z, torch.ones(3, 1), torch.ones(2))),
                           error_text(lambda: LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(4, 3, 1), z + 1))]

    pairs = [("logistic_normal", "logistic_normal_c"), ("one_hot_st", "one_hot_st"), ("one_hot_st", "one_hot"), ("one_hot", "one_hot_st"),
             ("wishart", "wishart_precision_2"), ("wishart_precision_2", "wishart"),
             ("lowrank", "lowrank_b"), ("lowrank_b", "lowrank"), ("mvn3", "lowrank"), ("lowrank", "mvn3"), ("lowrank_batch", "lowrank_batch")]
    made = {k: build(v["cases"][k]["class"], v["cases"][k]["args"], v["cases"][k]["dtype"])[0] for k in v["cases"]}
    v["kl_pairs"] = [[p, q] for p, q in pairs]
    v["kl_values"] = [flat(kl_divergence(made[p], made[q])) for p, q in pairs]
    v["kl_lowrank_error"] = error_text(lambda: kl_divergence(made["lowrank"], made["lowrank_batch"]))
    v["kl_lowrank_mvn_error"] = error_text(lambda: kl_divergence(made["lowrank_batch"], made["mvn3"]))
    v["kl_wishart_normal_error"] = error_text(lambda: kl_divergence(made["wishart"], Normal(0.0, 1.0)))
    v["kl_relaxed_error"] = error_text(lambda: kl_divergence(made["relaxed_bernoulli"], made["relaxed_bernoulli"]))
    write(os.path.join(HERE, "structured_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
