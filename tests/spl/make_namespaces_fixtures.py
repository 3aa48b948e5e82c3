#!/usr/bin/env python3
"""Writes tests/spl/namespaces_fixtures.spl: torch.linalg, torch.fft and torch.special called
through their namespaces on the pin, for lib.torch.linalg, .fft and .special (each name is the
ATen operator PyTorch's namespace calls, so the values are compared exactly), with the
namespaces' public names.
Run: .venv/bin/python tests/spl/make_namespaces_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, write  # noqa: E402  (the one writer of Simple fixture files)


def main():
    v = {}
    a = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64)
    b = torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64)
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    v["svd"] = [flat(u), flat(s), flat(vh)]
    v["solve"] = flat(torch.linalg.solve(a, b))
    v["inv"] = flat(torch.linalg.inv(a))
    v["det"] = float(torch.linalg.det(a))
    v["slogdet"] = [float(x) for x in torch.linalg.slogdet(a)]
    v["eigh"] = [flat(x) for x in torch.linalg.eigh(a)]
    v["cholesky"] = flat(torch.linalg.cholesky(a))
    v["matrix_norm_fro"] = float(torch.linalg.matrix_norm(a, ord="fro"))
    v["vector_norm_3"] = float(torch.linalg.vector_norm(a, ord=3))
    v["norm_dim"] = flat(torch.linalg.norm(a, dim=1))
    v["qr"] = [flat(x) for x in torch.linalg.qr(a)]
    v["pinv"] = flat(torch.linalg.pinv(a))
    v["matrix_power"] = flat(torch.linalg.matrix_power(a, 3))
    v["cross"] = flat(torch.linalg.cross(a, a.flip(0)))
    v["singular_error"] = error_text(lambda: torch.linalg.inv(torch.zeros(2, 2, dtype=torch.float64)))
    sig = torch.arange(8, dtype=torch.float64).sin()
    spec = torch.fft.rfft(sig, n=8, norm="ortho")
    v["rfft"] = [flat(spec.real), flat(spec.imag)]
    v["irfft"] = flat(torch.fft.irfft(spec, n=8, norm="ortho"))
    full = torch.fft.fft(sig)
    v["fft"] = [flat(full.real), flat(full.imag)]
    v["rfftfreq"] = flat(torch.fft.rfftfreq(8, d=0.5))
    v["fftshift"] = flat(torch.fft.fftshift(torch.arange(6.0)))
    x = torch.linspace(-3, 3, 7, dtype=torch.float64)
    v["expit"] = flat(torch.special.expit(x))
    v["xlogy"] = flat(torch.special.xlogy(x.abs(), x.abs() + 1))
    v["gammaln"] = flat(torch.special.gammaln(x.abs() + 0.5))
    v["erfcx"] = flat(torch.special.erfcx(x))
    v["bessel_j0"] = flat(torch.special.bessel_j0(x))
    v["log_softmax"] = flat(torch.special.log_softmax(x, 0))
    v["zeta"] = flat(torch.special.zeta(x.abs() + 2, torch.tensor(1.0, dtype=torch.float64)))
    for ns in ("linalg", "fft", "special"):
        mod = getattr(torch, ns)
        v[ns + "_names"] = sorted(getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")])
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "namespaces_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
