#!/usr/bin/env python3
"""Writes tests/distributions/families_fixtures.spl: torch.distributions' Cauchy, HalfCauchy,
HalfNormal, Gumbel, Weibull, Pareto, StudentT, Chi2, FisherSnedecor, Geometric,
NegativeBinomial, ContinuousBernoulli, Kumaraswamy, InverseGamma, GeneralizedPareto, VonMises,
ExponentialFamily's entropy and their kl_divergence pairs, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/distributions/make_families_fixtures.py

Each case is recorded by make_distributions_fixtures.case (same keys, same draws), with this
script's classes added to its table.
"""
import os
import sys

import torch
from torch.distributions import (Cauchy, HalfCauchy, HalfNormal, Gumbel, Weibull, Pareto, StudentT, Chi2, FisherSnedecor,
                                 Geometric, NegativeBinomial, ContinuousBernoulli, Kumaraswamy, InverseGamma,
                                 GeneralizedPareto, VonMises, ExponentialFamily, kl_divergence)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_distributions_fixtures as base  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402  (base put tests/nn on the path)

NEW = {"Cauchy": Cauchy, "HalfCauchy": HalfCauchy, "HalfNormal": HalfNormal, "Gumbel": Gumbel, "Weibull": Weibull,
       "Pareto": Pareto, "StudentT": StudentT, "Chi2": Chi2, "FisherSnedecor": FisherSnedecor, "Geometric": Geometric,
       "NegativeBinomial": NegativeBinomial, "ContinuousBernoulli": ContinuousBernoulli, "Kumaraswamy": Kumaraswamy,
       "InverseGamma": InverseGamma, "GeneralizedPareto": GeneralizedPareto, "VonMises": VonMises}
base.CLASSES.update(NEW)
NAN = float("nan")


def main():
    v = {}
    case = base.case
    case(v, "cauchy", "Cauchy", {"loc": [0.5, -1.0], "scale": [1.0, 2.5]}, [0.3, 4.0],
         {"loc": [0.0, 1.0], "scale": [1.0, -1.0]}, [NAN, 0.0], seed=101, cdf=True)
    case(v, "cauchy_scalar", "Cauchy", {"loc": 0.0, "scale": 1.0}, [0.25, -2.0],
         {"loc": NAN, "scale": 1.0}, [NAN], seed=102, cdf=True)
    case(v, "cauchy_f64", "Cauchy", {"loc": [[0.5], [1.5]], "scale": [0.3, 2.0, 4.0]}, [1.0, 2.0, 3.0],
         {"loc": [0.0], "scale": [0.0]}, [NAN, 0.0, 1.0], seed=103, dtype="float64", cdf=True)
    case(v, "student_t", "StudentT", {"df": [3.0, 1.5, 0.8], "loc": [0.0, 1.0, -1.0], "scale": [1.0, 2.0, 0.5]}, [0.3, 4.0, -1.0],
         {"df": [3.0, -1.5], "loc": 0.0, "scale": 1.0}, [NAN, 0.0, 1.0], seed=104)
    case(v, "student_t_scalar", "StudentT", {"df": 5.0, "loc": 0.0, "scale": 1.0}, [0.5],
         {"df": 5.0, "loc": 0.0, "scale": 0.0}, [NAN], seed=105)
    case(v, "chi2", "Chi2", {"df": [1.0, 3.0, 0.5]}, [0.5, 2.0, 3.0],
         {"df": [1.0, -3.0]}, [-0.5, 2.0, 3.0], seed=106, cdf=True)
    case(v, "chi2_scalar", "Chi2", {"df": 4.0}, [2.5],
         {"df": 0.0}, [-1.0], seed=107, dtype="float64", cdf=True)
    case(v, "fisher", "FisherSnedecor", {"df1": [1.0, 3.0, 5.0], "df2": [2.0, 5.0, 10.0]}, [0.5, 2.0, 1.0],
         {"df1": [1.0, -3.0], "df2": [2.0, 5.0]}, [-0.5, 2.0, 1.0], seed=108)
    case(v, "fisher_scalar", "FisherSnedecor", {"df1": 4.0, "df2": 6.0}, [1.5],
         {"df1": 4.0, "df2": 0.0}, [0.0], seed=109)
    case(v, "geometric", "Geometric", {"probs": [0.3, 1.0, 0.5]}, [0.0, 0.0, 3.0],
         {"probs": [0.3, 0.0]}, [0.5, 1.0, 2.0], seed=110)
    case(v, "geometric_logits", "Geometric", {"logits": [[-1.0, 2.0], [0.0, 0.5]]}, [1.0, 4.0],
         {"logits": [NAN]}, [-1.0, 0.0], seed=111)
    case(v, "geometric_unit", "Geometric", {"probs": 0.25}, [2.0],
         {"probs": 1.5}, [2.5], seed=112)
    case(v, "negative_binomial", "NegativeBinomial", {"total_count": 5, "probs": [0.2, 0.5]}, [1.0, 3.0],
         {"total_count": 5, "probs": [0.2, 1.0]}, [1.5, 3.0], seed=113)
    case(v, "negative_binomial_logits", "NegativeBinomial", {"total_count": [3.0, 0.5], "logits": [-1.0, 0.5]}, [0.0, 2.0],
         {"total_count": [-3.0, 0.5], "logits": [-1.0, 0.5]}, [-1.0, 2.0], seed=114)
    case(v, "continuous_bernoulli", "ContinuousBernoulli", {"probs": [0.2, 0.5, 0.9]}, [0.3, 0.6, 1.0],
         {"probs": [0.2, NAN]}, [0.3, 1.5, 1.0], seed=115, cdf=True)
    case(v, "continuous_bernoulli_logits", "ContinuousBernoulli", {"logits": [-1.0, 0.001, 3.0]}, [0.0, 0.5, 0.25],
         {"logits": [NAN]}, [-0.1, 0.5, 0.25], seed=116, cdf=True)
    case(v, "exponential_cb", "Exponential", {"rate": [0.5, 2.0, 4.0]}, [0.5, 1.5, 0.0],
         {"rate": [0.5, 0.0, 1.0]}, [-1.0, 0.0, 1.0], seed=117)
    case(v, "half_normal", "HalfNormal", {"scale": [1.0, 0.5]}, [0.5, 2.0],
         {"scale": [1.0, -0.5]}, [-0.5, 2.0], seed=118, cdf=True)
    case(v, "half_normal_scalar", "HalfNormal", {"scale": 2.0}, [1.5],
         {"scale": 0.0}, [-1.0], seed=119, cdf=True)
    case(v, "half_cauchy", "HalfCauchy", {"scale": [1.0, 2.5]}, [0.5, 3.0],
         {"scale": [NAN, 2.5]}, [-0.5, 3.0], seed=120, cdf=True)
    case(v, "gumbel", "Gumbel", {"loc": [0.5, -1.0], "scale": [1.0, 2.0]}, [0.3, 4.0],
         {"loc": [0.5, -1.0], "scale": [1.0, 0.0]}, [NAN, 0.0], seed=121, cdf=True)
    case(v, "gumbel_scalar", "Gumbel", {"loc": 1.0, "scale": 2.0}, [0.5],
         {"loc": NAN, "scale": 2.0}, [NAN], seed=122, cdf=True)
    case(v, "weibull", "Weibull", {"scale": [1.0, 2.0], "concentration": [0.5, 3.0]}, [0.5, 2.0],
         {"scale": [1.0, 2.0], "concentration": [0.5, -3.0]}, [-0.5, 2.0], seed=123, cdf=True)
    case(v, "pareto", "Pareto", {"scale": [1.0, 2.0], "alpha": [0.5, 3.0]}, [1.5, 2.5],
         {"scale": [1.0, 2.0], "alpha": [0.0, 3.0]}, [0.5, 2.5], seed=124, cdf=True)
    case(v, "pareto_b", "Pareto", {"scale": 1.5, "alpha": [2.5, 4.0]}, [1.5, 2.5],
         {"scale": -1.5, "alpha": [2.5, 4.0]}, [1.0, 2.5], seed=125, dtype="float64", cdf=True)
    case(v, "kumaraswamy", "Kumaraswamy", {"concentration1": [0.5, 2.0], "concentration0": [3.0, 0.5]}, [0.2, 0.7],
         {"concentration1": [0.5, -2.0], "concentration0": [3.0, 2.0]}, [1.5, 0.5], seed=126, cdf=True)
    case(v, "kumaraswamy_mode", "Kumaraswamy", {"concentration1": 2.0, "concentration0": 3.0}, [0.4],
         {"concentration1": 2.0, "concentration0": 0.0}, [1.5], seed=127)
    case(v, "inverse_gamma", "InverseGamma", {"concentration": [1.0, 2.5, 3.0], "rate": [2.0, 0.5, 1.0]}, [0.5, 2.0, 3.0],
         {"concentration": [1.0, 0.0], "rate": [1.0, 1.0]}, [0.5, -2.0, 1.0], seed=128, cdf=True)
    case(v, "generalized_pareto", "GeneralizedPareto", {"loc": [0.0, 1.0, 0.0], "scale": [1.0, 2.0, 0.5], "concentration": [0.0, 0.3, -0.5]},
         [0.5, 2.0, 0.5], {"loc": 0.0, "scale": [1.0, -2.0], "concentration": 0.0}, [-1.0, 2.0, 0.5], seed=129, cdf=True)
    case(v, "von_mises", "VonMises", {"loc": [0.0, 1.0, -2.0], "concentration": [0.5, 4.0, 1e-6]}, [0.3, 1.0, 3.0],
         {"loc": [0.0], "concentration": [-1.0]}, [NAN, 1.0, 3.0], seed=130)
    case(v, "von_mises_f64", "VonMises", {"loc": [[0.5], [-1.0]], "concentration": [10.0, 0.1]}, [0.3, 1.0],
         {"loc": [NAN], "concentration": [1.0]}, [NAN, 1.0], seed=131, dtype="float64")
    # scalar cases of earlier classes, for the KL pairs
    case(v, "beta_s", "Beta", {"concentration1": 2.0, "concentration0": 3.0}, [0.3], {"concentration1": 0.0, "concentration0": 1.0}, [2.0], seed=140)
    case(v, "normal_s", "Normal", {"loc": 0.5, "scale": 2.0}, [0.3], {"loc": 0.0, "scale": 0.0}, [NAN], seed=141)
    case(v, "uniform_s", "Uniform", {"low": -0.5, "high": 3.0}, [0.3], {"low": 1.0, "high": 0.0}, [4.0], seed=142)
    case(v, "gamma_s", "Gamma", {"concentration": 2.0, "rate": 1.5}, [0.3], {"concentration": 0.0, "rate": 1.0}, [-1.0], seed=143)
    case(v, "exponential_s", "Exponential", {"rate": 1.5}, [0.3], {"rate": 0.0}, [-1.0], seed=146)
    case(v, "laplace_s", "Laplace", {"loc": 0.5, "scale": 2.0}, [0.3], {"loc": 0.0, "scale": 0.0}, [NAN], seed=144)
    case(v, "uniform_unit", "Uniform", {"low": [0.1, 0.2, 0.0], "high": [0.5, 0.9, 1.0]}, [0.3, 0.3, 0.3], {"low": [1.0], "high": [0.0]}, [4.0, 0.3], seed=145)
    v["cb_explicit_validate_error"] = error_text(lambda: ContinuousBernoulli(probs=torch.tensor([1.5]), validate_args=True))
    v["cb_lims_mean"] = flat(ContinuousBernoulli(probs=torch.tensor([0.45, 0.52]), lims=(0.4, 0.6)).mean)
    cb = ContinuousBernoulli(probs=torch.tensor([0.2, 0.5, 0.9]))
    v["expfamily_entropy_cb"] = flat(ExponentialFamily.entropy(cb))
    v["expfamily_entropy_chi2"] = flat(ExponentialFamily.entropy(Chi2(torch.tensor([1.0, 3.0, 0.5]))))
    pairs = [("continuous_bernoulli", "continuous_bernoulli_logits"), ("gumbel", "gumbel_scalar"), ("geometric_logits", "geometric_unit"),
             ("half_normal", "half_normal_scalar"), ("pareto", "pareto_b"), ("pareto_b", "pareto"), ("cauchy", "cauchy_scalar"), ("cauchy_f64", "cauchy_f64"),
             ("chi2", "chi2"), ("chi2", "exponential_cb"), ("exponential_cb", "chi2"), ("chi2", "gamma_s"),
             ("beta_s", "continuous_bernoulli"), ("beta_s", "pareto"), ("continuous_bernoulli", "pareto_b"), ("continuous_bernoulli", "exponential_cb"),
             ("continuous_bernoulli", "normal_s"), ("continuous_bernoulli", "uniform_s"), ("continuous_bernoulli_logits", "uniform_unit"),
             ("exponential_cb", "continuous_bernoulli"), ("exponential_s", "pareto_b"), ("exponential_cb", "gumbel_scalar"),
             ("gamma_s", "continuous_bernoulli"), ("gamma_s", "pareto"), ("gamma_s", "gumbel"),
             ("gumbel", "beta_s"), ("gumbel", "continuous_bernoulli_logits"), ("gumbel", "exponential_cb"), ("gumbel", "gamma_s"), ("gumbel", "pareto"),
             ("gumbel", "uniform_s"), ("gumbel", "normal_s"), ("laplace_s", "continuous_bernoulli"), ("laplace_s", "pareto"),
             ("normal_s", "continuous_bernoulli"), ("normal_s", "pareto"), ("normal_s", "gumbel"),
             ("pareto", "beta_s"), ("pareto", "continuous_bernoulli_logits"), ("pareto", "uniform_s"), ("pareto", "exponential_s"), ("pareto_b", "exponential_s"),
             ("pareto", "gamma_s"), ("pareto_b", "gamma_s"), ("pareto", "normal_s"), ("pareto_b", "normal_s"),
             ("uniform_s", "continuous_bernoulli"), ("uniform_unit", "continuous_bernoulli_logits"), ("uniform_s", "gumbel"), ("uniform_s", "pareto"), ("uniform_s", "pareto_b")]
    v["kl_pairs"] = [[p, q] for p, q in pairs]
    made = {}
    for k in set(x for pq in pairs for x in pq):
        made[k], _ = base.build(v["cases"][k]["class"], v["cases"][k]["args"], v["cases"][k]["dtype"])
    v["kl_values"] = [flat(kl_divergence(made[p], made[q])) for p, q in pairs]
    v["kl_halfnormal_lognormal_error"] = error_text(lambda: kl_divergence(made["half_normal"], torch.distributions.LogNormal(0.0, 1.0)))
    v["kl_cb_bernoulli_error"] = error_text(lambda: kl_divergence(made["continuous_bernoulli"], torch.distributions.Bernoulli(0.5)))
    v["kl_vonmises_error"] = error_text(lambda: kl_divergence(made["gumbel"], VonMises(torch.tensor(0.0), torch.tensor(1.0))))
    v["geometric_positive_error"] = error_text(lambda: Geometric(probs=torch.tensor([0.5, 0.0, 0.0])))
    v["half_open_repr"] = repr(torch.distributions.constraints.half_open_interval(0.0, 1.0))
    v["pareto_support"] = repr(Pareto(torch.tensor([1.0, 2.0]), 3.0).support)
    v["gp_support"] = repr(GeneralizedPareto(0.0, 1.0, torch.tensor(-0.5)).support)
    d = NegativeBinomial(5, logits=torch.tensor([0.0, 1.0]))
    v["nb_lazy_before"] = repr(d)
    d.probs
    v["nb_lazy_after"] = repr(d)
    torch.manual_seed(7)
    v["vonmises_many"] = flat(VonMises(torch.tensor([0.0, 2.0]), torch.tensor([0.01, 50.0])).sample([200]))
    v["vonmises_variance"] = flat(VonMises(torch.tensor([0.0, 2.0]), torch.tensor([0.01, 50.0])).variance)
    write(os.path.join(HERE, "families_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
