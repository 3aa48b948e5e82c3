#!/usr/bin/env python3
"""Writes tests/distributions/distributions_fixtures.spl: torch.distributions' Normal,
Bernoulli, Categorical, Uniform, Exponential, Laplace, OneHotCategorical, Multinomial,
Binomial, Poisson, Independent, LogNormal, TransformedDistribution (Exp, Affine and Sigmoid
transforms), Gamma, Beta, Dirichlet, MultivariateNormal, RelaxedOneHotCategorical,
ExpRelaxedCategorical and kl_divergence, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/distributions/make_distributions_fixtures.py

`ref_cases[name]` holds a case: its class, its arguments (`args`: numbers stay numbers, lists
become tensors of `dtype`) and what the spec checks the same way (keys):
  repr, batch_shape, event_shape
  sample0 / sample0_shape     d.sample() right after manual_seed(seed)
  sample / sample_shape       d.sample([3, 2]) right after manual_seed(seed + 1)
  rsample, rsample_grads      (rsample classes) the tensor arguments made again with
                              requires_grad, manual_seed(seed + 2), x = d.rsample([3]),
                              (x * upstream(x)).sum().backward(): x and each argument's grad
  log_prob (of `values`), entropy, mean, variance, stddev, mode (nil: NotImplementedError), cdf, icdf (of
  full(batch_shape, 0.3), where the class has them), expand_sample (d.expand([4] + batch_shape)
  sampled after manual_seed(seed + 3))
  arg_error                   PyTorch's message for `bad_args`
  value_error, shape_error    log_prob of `bad_value` and of a wrongly shaped value
                              ([5, 7, ...]; nil without batch dimensions)
"""
import os
import sys

import torch
from torch.distributions import (Bernoulli, Binomial, Categorical, Exponential, Independent, Laplace, Multinomial, Normal,
                                 OneHotCategorical, Poisson, Uniform, kl_divergence, LogNormal, TransformedDistribution,
                                 Gamma, Beta, Dirichlet, MultivariateNormal, RelaxedOneHotCategorical)
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical
from torch.distributions.transforms import AffineTransform, ExpTransform, SigmoidTransform

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = {"Normal": Normal, "Bernoulli": Bernoulli, "Categorical": Categorical, "Uniform": Uniform,
           "Exponential": Exponential, "Laplace": Laplace, "OneHotCategorical": OneHotCategorical,
           "Multinomial": Multinomial, "Binomial": Binomial, "Poisson": Poisson, "LogNormal": LogNormal,
           "Gamma": Gamma, "Beta": Beta, "Dirichlet": Dirichlet, "MultivariateNormal": MultivariateNormal,
           "RelaxedOneHotCategorical": RelaxedOneHotCategorical, "ExpRelaxedCategorical": ExpRelaxedCategorical}


def transform(spec):
    """["Exp"], ["Sigmoid"] or ["Affine", loc, scale, event_dim] (numbers)."""
    if spec[0] == "Exp":
        return ExpTransform()
    if spec[0] == "Sigmoid":
        return SigmoidTransform()
    return AffineTransform(spec[1], spec[2], event_dim=spec[3])
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def build(cls, args, dtype, requires_grad=False):
    """The distribution and its tensor arguments. Independent's args are {"base_class",
    "base_args", "reinterpreted_batch_ndims"}."""
    if cls == "Independent":
        base, tensors = build(args["base_class"], args["base_args"], dtype, requires_grad)
        return Independent(base, args["reinterpreted_batch_ndims"]), tensors
    if cls == "TransformedDistribution":
        base, tensors = build(args["base_class"], args["base_args"], dtype, requires_grad)
        return TransformedDistribution(base, [transform(t) for t in args["transforms"]]), tensors
    made = {}
    for k, a in args.items():
        if isinstance(a, list):
            made[k] = torch.tensor(a, dtype=DTYPES[dtype], requires_grad=requires_grad)
        else:
            made[k] = a
    return CLASSES[cls](**made), [t for t in made.values() if isinstance(t, torch.Tensor)]


def value_tensor(values, dtype):
    if isinstance(values, list) and values and isinstance(values[0], int) or isinstance(values, int):
        return torch.tensor(values)
    return torch.tensor(values, dtype=DTYPES[dtype])


def case(v, name, cls, args, values, bad_args, bad_value, seed, dtype="float32", cdf=False):
    c = v.setdefault("cases", {}).setdefault(name, {})
    c["class"] = cls
    c["args"] = args
    c["dtype"] = dtype
    c["values"] = values
    c["bad_args"] = bad_args
    c["bad_value"] = bad_value
    c["seed"] = seed
    d, _ = build(cls, args, dtype)
    c["repr"] = repr(d)
    c["batch_shape"] = list(d.batch_shape)
    c["event_shape"] = list(d.event_shape)
    torch.manual_seed(seed)
    s = d.sample()
    c["sample0"] = flat(s)
    c["sample0_shape"] = list(s.shape)
    torch.manual_seed(seed + 1)
    s = d.sample([3, 2])
    c["sample"] = flat(s)
    c["sample_shape"] = list(s.shape)
    c["has_rsample"] = d.has_rsample
    if d.has_rsample:
        dg, made = build(cls, args, dtype, requires_grad=True)
        torch.manual_seed(seed + 2)
        x = dg.rsample([3])
        c["rsample"] = flat(x)
        if x.requires_grad:
            (x * upstream(x)).sum().backward()
        c["rsample_grads"] = [flat(t.grad) for t in made]
    x = value_tensor(values, dtype)
    c["log_prob"] = flat(d.log_prob(x))
    for prop in ["entropy", "mean", "variance", "stddev", "mode"]:
        try:
            c[prop] = flat(d.entropy() if prop == "entropy" else getattr(d, prop))
        except NotImplementedError:
            c[prop] = None   # the spec expects an error
    c["has_cdf"] = cdf
    if cdf:
        try:
            c["cdf"] = flat(d.cdf(x))
        except NotImplementedError:
            c["cdf"] = None
        try:
            c["icdf"] = flat(d.icdf(torch.full(list(d.batch_shape), 0.3, dtype=DTYPES[dtype])))
        except NotImplementedError:
            c["icdf"] = None
    e = d.expand([4] + list(d.batch_shape))
    torch.manual_seed(seed + 3)
    c["expand_sample"] = flat(e.sample())
    c["expand_batch_shape"] = list(e.batch_shape)
    c["arg_error"] = error_text(lambda: build(cls, bad_args, dtype))
    c["value_error"] = error_text(lambda: d.log_prob(value_tensor(bad_value, dtype)))
    c["shape_error"] = None if not d.batch_shape else error_text(lambda: d.log_prob(torch.zeros([5] + [7] * (len(d.batch_shape) + len(d.event_shape)), dtype=DTYPES[dtype])))


def main():
    v = {}
    case(v, "normal", "Normal", {"loc": [0.5, -1.0], "scale": [1.0, 2.5]}, [0.3, 4.0],
         {"loc": [0.0, 1.0], "scale": [1.0, -1.0]}, [float("nan"), 0.0], seed=1, cdf=True)
    case(v, "normal_scalar", "Normal", {"loc": 0.0, "scale": 1.0}, [0.25, -2.0],
         {"loc": 0.0, "scale": 0.0}, [float("nan")], seed=2, cdf=True)
    case(v, "normal_f64", "Normal", {"loc": [[0.5], [1.5]], "scale": [0.3, 2.0, 4.0]}, [1.0, 2.0, 3.0],
         {"loc": [[float("nan")]], "scale": [1.0]}, [float("nan"), 0.0, 1.0], seed=3, dtype="float64", cdf=True)
    case(v, "normal_mixed", "Normal", {"loc": [0.5, -1.0, 2.0], "scale": 2.0}, [0.3, 4.0, -1.0],
         {"loc": [0.5], "scale": -2.0}, [0.0, float("nan"), 0.0], seed=4, cdf=True)
    case(v, "bernoulli", "Bernoulli", {"probs": [0.3, 0.9, 0.5]}, [1.0, 0.0, 1.0],
         {"probs": [0.3, 1.5, 0.5]}, [0.5, 1.0, 0.0], seed=5)
    case(v, "bernoulli_logits", "Bernoulli", {"logits": [[-1.0, 2.0], [0.0, 3.0]]}, [1.0, 0.0],
         {"logits": [float("nan")]}, [2.0, 0.0], seed=6)
    case(v, "bernoulli_scalar", "Bernoulli", {"probs": 0.3}, [1.0],
         {"probs": -0.1}, [0.3], seed=7)
    case(v, "categorical", "Categorical", {"probs": [0.1, 0.2, 0.7]}, [0, 2, 1],
         {"probs": [0.5, -0.5, 1.0]}, [3], seed=8)
    case(v, "categorical_logits", "Categorical", {"logits": [[0.0, 1.0, 2.0], [3.0, -1.0, 0.0]]}, [[2, 0], [1, 1]],
         {"logits": [[0.0, float("nan")]]}, [0, -1], seed=9)
    case(v, "uniform", "Uniform", {"low": [0.0, -2.0], "high": [1.0, 3.0]}, [0.5, 2.5],
         {"low": [0.0, 1.0], "high": [1.0, 0.5]}, [1.5, 0.0], seed=10, cdf=True)
    case(v, "uniform_scalar", "Uniform", {"low": -1.0, "high": 1.0}, [0.25, -0.75],
         {"low": 1.0, "high": 1.0}, [1.5], seed=11, cdf=True)
    case(v, "exponential", "Exponential", {"rate": [0.5, 2.0, 4.0]}, [0.5, 1.5, 0.0],
         {"rate": [0.5, 0.0, 1.0]}, [-1.0, 0.0, 1.0], seed=12, cdf=True)
    case(v, "exponential_scalar", "Exponential", {"rate": 1.5}, [0.5],
         {"rate": -1.0}, [-0.5], seed=13, cdf=True)
    case(v, "laplace", "Laplace", {"loc": [0.0, 1.0], "scale": [2.0, 0.5]}, [0.5, -3.0],
         {"loc": [0.0, 1.0], "scale": [0.0, 1.0]}, [float("nan"), 0.0], seed=14, cdf=True)
    case(v, "laplace_f64", "Laplace", {"loc": 0.0, "scale": [1.0, 3.0]}, [0.5, -3.0],
         {"loc": 0.0, "scale": [-1.0, 3.0]}, [float("nan"), 0.0], seed=15, dtype="float64", cdf=True)
    case(v, "one_hot", "OneHotCategorical", {"probs": [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]}, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
         {"probs": [0.2, -0.8]}, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], seed=16)
    case(v, "one_hot_logits", "OneHotCategorical", {"logits": [0.5, -1.0, 2.0, 0.0]}, [0.0, 0.0, 0.0, 1.0],
         {"logits": [float("nan"), 0.0]}, [0.5, 0.5, 0.0, 0.0], seed=17)
    case(v, "multinomial", "Multinomial", {"total_count": 5, "probs": [0.2, 0.3, 0.5]}, [1.0, 1.0, 3.0],
         {"total_count": 5, "probs": [0.2, -0.3, 0.5]}, [1.0, -1.0, 3.0], seed=18)
    case(v, "multinomial_batch", "Multinomial", {"total_count": 4, "logits": [[0.0, 1.0], [2.0, -1.0]]}, [[2.0, 2.0], [4.0, 0.0]],
         {"total_count": 4, "logits": [[0.0, float("nan")]]}, [[5.0, 0.0], [4.0, 0.0]], seed=19)
    case(v, "binomial", "Binomial", {"total_count": 10, "probs": [0.2, 0.5]}, [1.0, 5.0],
         {"total_count": 10, "probs": [0.2, 1.5]}, [1.0, 11.0], seed=20)
    case(v, "binomial_logits", "Binomial", {"total_count": [3.0, 6.0], "logits": [-1.0, 0.5]}, [3.0, 0.0],
         {"total_count": [-1.0, 6.0], "logits": [-1.0, 0.5]}, [1.5, 0.0], seed=21)
    case(v, "poisson", "Poisson", {"rate": [1.0, 4.0, 0.5]}, [1.0, 3.0, 0.0],
         {"rate": [1.0, -4.0]}, [1.5, 3.0, 0.0], seed=22)
    case(v, "poisson_scalar", "Poisson", {"rate": 2.5}, [2.0],
         {"rate": -1.0}, [-1.0], seed=23)
    case(v, "log_normal", "LogNormal", {"loc": [0.0, 1.0], "scale": [0.5, 2.0]}, [0.5, 2.0],
         {"loc": [0.0, 1.0], "scale": [0.5, -2.0]}, [-0.5, 2.0], seed=26, cdf=True)
    case(v, "log_normal_scalar", "LogNormal", {"loc": 0.5, "scale": 1.5}, [1.5],
         {"loc": float("nan"), "scale": 1.5}, [0.0], seed=27, cdf=True)
    case(v, "logit_normal", "TransformedDistribution",
         {"base_class": "Normal", "base_args": {"loc": [0.0, 1.0], "scale": [1.0, 0.5]}, "transforms": [["Affine", 1.0, 3.0, 0], ["Sigmoid"]]},
         [0.25, 0.75], {"base_class": "Normal", "base_args": {"loc": [0.0], "scale": [0.0]}, "transforms": [["Sigmoid"]]},
         [1.5, 0.5], seed=28, cdf=True)
    case(v, "affine_event", "TransformedDistribution",
         {"base_class": "Normal", "base_args": {"loc": [0.5, -1.0], "scale": [1.0, 2.0]}, "transforms": [["Affine", 1.0, -3.0, 1], ["Exp"]]},
         [0.25, 0.75], {"base_class": "Normal", "base_args": {"loc": [0.0], "scale": [-1.0]}, "transforms": [["Exp"]]},
         [0.5, -0.5], seed=29)
    case(v, "gamma", "Gamma", {"concentration": [1.0, 2.5, 0.5], "rate": [2.0, 0.5, 1.0]}, [0.5, 2.0, 3.0],
         {"concentration": [1.0, 0.0], "rate": [1.0, 1.0]}, [0.5, -2.0, 1.0], seed=30, cdf=True)
    case(v, "gamma_mixed", "Gamma", {"concentration": [3.0, 0.7, 1.2], "rate": 1.5}, [0.5, 2.0, 1.0],
         {"concentration": 1.0, "rate": -1.0}, [-1.0, 2.0, 1.0], seed=31, dtype="float64", cdf=True)
    case(v, "gamma_scalar", "Gamma", {"concentration": 2.0, "rate": 3.0}, [0.5],
         {"concentration": float("nan"), "rate": 3.0}, [-0.5], seed=35)
    case(v, "beta", "Beta", {"concentration1": [0.5, 2.0], "concentration0": [3.0, 2.0]}, [0.2, 0.7],
         {"concentration1": [0.5, -2.0], "concentration0": [3.0, 3.0]}, [1.5, 0.5], seed=32)
    case(v, "beta_scalar", "Beta", {"concentration1": 2.0, "concentration0": 5.0}, [0.3],
         {"concentration1": 0.0, "concentration0": 5.0}, [-0.3], seed=33)
    case(v, "dirichlet", "Dirichlet", {"concentration": [[0.5, 1.0, 2.0], [0.3, 0.2, 0.9]]}, [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]],
         {"concentration": [0.5, -1.0]}, [[0.2, 0.3, 0.6], [0.1, 0.1, 0.8]], seed=34)
    case(v, "mvn_cov", "MultivariateNormal", {"loc": [[0.0, 1.0], [2.0, -1.0]], "covariance_matrix": [[2.0, 0.5], [0.5, 1.0]]},
         [0.5, 0.2], {"loc": [0.0, 1.0], "covariance_matrix": [[1.0, 2.0], [2.0, 1.0]]}, [float("nan"), 0.2], seed=36)
    case(v, "mvn_precision", "MultivariateNormal", {"loc": [1.0, -1.0, 0.0], "precision_matrix": [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 1.5]]},
         [[0.5, 0.2, 0.1], [0.0, 0.0, 0.0]], {"loc": [1.0, -1.0], "precision_matrix": [[2.0, 0.5], [0.4, 1.0]]}, [0.5, float("nan"), 0.1], seed=37)
    case(v, "mvn_tril", "MultivariateNormal", {"loc": [0.5, -0.5], "scale_tril": [[[1.0, 0.0], [0.3, 0.5]], [[2.0, 0.0], [-1.0, 1.0]]]},
         [[1.0, 0.0], [0.5, 0.5]], {"loc": [0.5, -0.5], "scale_tril": [[1.0, 2.0], [0.0, 1.0]]}, [[1.0, float("nan")], [0.5, 0.5]], seed=38)
    case(v, "mvn_f64", "MultivariateNormal", {"loc": [0.5, -0.5], "covariance_matrix": [[1.0, 0.2], [0.2, 0.5]]},
         [1.0, 0.0], {"loc": [0.5, -0.5], "covariance_matrix": [[1.0, 0.2], [0.3, 0.5]]}, [float("nan"), 0.0], seed=41, dtype="float64")
    case(v, "relaxed", "RelaxedOneHotCategorical", {"temperature": [0.5], "probs": [[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]},
         [0.2, 0.3, 0.5], {"temperature": [0.5], "probs": [[0.1, -0.2, 0.7]]}, [0.5, 0.6, 0.2], seed=39)
    case(v, "exp_relaxed", "ExpRelaxedCategorical", {"temperature": [2.0], "logits": [0.0, 1.0]},
         [-0.5, -0.9], {"temperature": [2.0], "logits": [float("nan"), 1.0]}, [float("nan"), -0.9], seed=40)
    case(v, "independent", "Independent", {"base_class": "Normal", "base_args": {"loc": [[0.5, -1.0, 0.0], [1.0, 2.0, 3.0]], "scale": [1.0, 2.5, 0.5]}, "reinterpreted_batch_ndims": 1},
         [[0.3, 4.0, 0.0], [0.0, 0.0, 1.0]], {"base_class": "Normal", "base_args": {"loc": [0.5], "scale": [1.0]}, "reinterpreted_batch_ndims": 2},
         [[0.0, float("nan"), 0.0]], seed=24, cdf=False)
    case(v, "independent_bernoulli", "Independent", {"base_class": "Bernoulli", "base_args": {"probs": [[0.5, 0.1], [0.9, 0.3]]}, "reinterpreted_batch_ndims": 2},
         [[1.0, 0.0], [1.0, 1.0]], {"base_class": "Bernoulli", "base_args": {"probs": [0.5]}, "reinterpreted_batch_ndims": 2},
         [[1.0, 0.5], [1.0, 1.0]], seed=25)

    # Bernoulli and Categorical keep the parameter they computed on first use (lazy_property).
    b = Bernoulli(logits=torch.tensor([0.0, 1.0]))
    v["bernoulli_lazy_before"] = repr(b)
    b.probs
    v["bernoulli_lazy_after"] = repr(b)
    v["probs_or_logits_error"] = error_text(lambda: Bernoulli(probs=0.5, logits=0.0))
    v["categorical_0d_error"] = error_text(lambda: Categorical(probs=torch.tensor(1.0)))
    v["categorical_enumerate"] = flat(Categorical(probs=torch.ones(2, 3)).enumerate_support())
    v["bernoulli_enumerate"] = flat(Bernoulli(probs=torch.ones(2) / 2).enumerate_support(expand=False))
    v["validate_off_log_prob"] = flat(Normal(torch.tensor([0.0]), torch.tensor([-1.0]), validate_args=False).log_prob(torch.tensor([1.0])))

    # kl_divergence: every registered pair among these classes, by the cases above.
    pairs = [("normal", "normal_scalar"), ("normal_scalar", "laplace"), ("normal", "laplace"), ("normal_mixed", "exponential"), ("normal", "uniform"), ("normal", "exponential_scalar"),
             ("bernoulli", "bernoulli_scalar"), ("categorical", "categorical_logits"),
             ("uniform", "uniform_scalar"), ("uniform", "normal"), ("uniform", "exponential_scalar"),
             ("exponential", "exponential_scalar"), ("exponential", "normal_mixed"), ("exponential_scalar", "uniform_scalar"),
             ("laplace", "normal"), ("laplace", "laplace_f64"), ("laplace", "exponential_scalar"), ("laplace", "uniform"),
             ("bernoulli_logits", "bernoulli_scalar"), ("one_hot", "one_hot"), ("poisson", "poisson_scalar"),
             ("bernoulli", "poisson"), ("binomial", "binomial"), ("independent", "independent"),
             ("poisson", "bernoulli"), ("gamma_mixed", "gamma"), ("beta", "beta_scalar"), ("dirichlet", "dirichlet"),
             ("exponential", "gamma"), ("exponential_scalar", "beta"), ("gamma", "exponential"), ("gamma", "normal_mixed"),
             ("gamma", "beta_scalar"), ("gamma", "uniform_scalar"), ("normal_mixed", "gamma_mixed"), ("normal", "beta"),
             ("laplace", "gamma_scalar"), ("laplace", "beta"), ("uniform", "gamma_scalar"), ("uniform_scalar", "beta"),
             ("beta", "exponential_scalar"), ("beta", "gamma_scalar"), ("beta", "normal"), ("beta", "uniform"),
             ("log_normal", "log_normal_scalar"), ("logit_normal", "logit_normal"), ("mvn_cov", "mvn_tril")]
    v["mode_error"] = error_text(lambda: Multinomial(2, torch.tensor([0.5, 0.5])).mode)
    v["kl_pairs"] = [[p, q] for p, q in pairs]
    made = {}
    for k in set(x for pq in pairs for x in pq) | {"normal_scalar", "mvn_cov"}:
        made[k], _ = build(v["cases"][k]["class"], v["cases"][k]["args"], v["cases"][k]["dtype"])
    v["kl_values"] = [flat(kl_divergence(made[p], made[q])) for p, q in pairs]
    v["kl_bregman_error"] = error_text(lambda: kl_divergence(made["normal"], made["bernoulli"]))
    v["kl_missing_error"] = error_text(lambda: kl_divergence(made["uniform"], made["laplace"]))
    v["kl_mvn_shape_error"] = error_text(lambda: kl_divergence(made["mvn_cov"], build("MultivariateNormal", v["cases"]["mvn_precision"]["args"], "float32")[0]))
    v["kl_lognormal_normal_error"] = error_text(lambda: kl_divergence(made["log_normal"], made["normal"]))
    v["kl_binomial_error"] = error_text(lambda: kl_divergence(Binomial(2, torch.tensor([0.5])), Binomial(3, torch.tensor([0.5]))))
    write(os.path.join(HERE, "distributions_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
