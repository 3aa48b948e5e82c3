#!/usr/bin/env python3
"""Writes tests/spl/grad_mode_fixtures.spl: what PyTorch's grad-mode regions (torch.no_grad,
enable_grad, set_grad_enabled, inference_mode) give on the pin: requires_grad and the modes
inside, nested and after each region, inference tensors, the mode after an error leaves a
region, a training step's update under no_grad, and LibTorch's refusals.
Run: .venv/bin/python tests/spl/make_grad_mode_fixtures.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402  (the one writer of Simple fixture files)


def modes():
    return [torch.is_grad_enabled(), torch.is_inference_mode_enabled()]


def modes_after_error_in(region):
    """The modes once an error has left `region` (a with block)."""
    error_text(lambda: enter_and_fail(region))
    return modes()


def enter_and_fail(region):
    with region:
        raise RuntimeError("boom")


def main():
    v = {}
    x = torch.ones(2, requires_grad=True)
    v["outside"] = modes()
    with torch.no_grad():
        v["no_grad_inside"] = [(x * 2).requires_grad] + modes()
        with torch.enable_grad():
            v["enable_grad_in_no_grad"] = [(x * 2).requires_grad] + modes()
        v["no_grad_after_enable_grad"] = [(x * 2).requires_grad] + modes()
        with torch.set_grad_enabled(True):
            v["set_true_in_no_grad"] = [(x * 2).requires_grad] + modes()
        v["no_grad_after_set_true"] = modes()
    v["after_no_grad"] = [(x * 2).requires_grad] + modes()

    with torch.set_grad_enabled(False):
        v["set_false_inside"] = [(x * 2).requires_grad] + modes()
    v["after_set_false"] = modes()
    torch.set_grad_enabled(False)  # as a plain call: the mode stays set
    v["set_false_call"] = modes()
    torch.set_grad_enabled(True)
    v["set_true_call"] = modes()

    with torch.inference_mode():
        z = x * 2
        v["inference_inside"] = [z.is_inference(), z.requires_grad] + modes()
        with torch.inference_mode(False):
            w = x * 3
            v["inference_off_inside"] = [w.is_inference(), w.requires_grad] + modes()
        v["inference_after_off"] = modes()
    v["after_inference"] = [z.is_inference(), (x * 2).is_inference()] + modes()
    v["inference_saved_for_backward"] = error_text(lambda: z * x)
    v["inference_inplace_outside"] = error_text(lambda: z.add_(1))

    v["after_error_in_no_grad"] = modes_after_error_in(torch.no_grad())
    v["after_error_in_inference"] = modes_after_error_in(torch.inference_mode())

    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    v["leaf_inplace_outside_no_grad"] = error_text(lambda: w.sub_(w.grad * 0.1))
    with torch.no_grad():
        w.sub_(w.grad * 0.1)
    v["step_under_no_grad"] = [w.tolist(), w.requires_grad, w.is_leaf]
    layouts = []
    for enable in (True, False):
        p = torch.arange(12.0).reshape(3, 4).t().requires_grad_()
        with torch.autograd.enforce_grad_layout_policy(enable):
            (p * torch.ones(4, 3)).sum().backward()
        layouts.append([list(p.grad.stride()), p.grad.tolist(), torch._C._is_grad_layout_enforcement_enabled()])
    torch.autograd.enforce_grad_layout_policy(False)
    layouts.append(torch._C._is_grad_layout_enforcement_enabled())
    torch.autograd.enforce_grad_layout_policy(True)
    v["grad_layout_policy"] = layouts
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "grad_mode_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
