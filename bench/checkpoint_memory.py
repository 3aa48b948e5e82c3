#!/usr/bin/env python3
"""Checkpointing's peak memory against plain training, Simple (bench/checkpoint_memory.spl) and
Python (the same network and step with torch.utils.checkpoint) on the same LibTorch. Both count
the CPU tensor memory LibTorch's allocator reports (Simple: the plugin's memory-peak region;
Python: the profiler's allocation events, profile_memory=True), from the start of the step: the
bytes the step's tensors hold at its highest point, weights excluded.

    bench/checkpoint_memory.py
"""
import os
import subprocess

import torch
from torch.utils.checkpoint import checkpoint_sequential

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, SIMPLE_SFFI_PATH=os.path.join(ROOT, "build", "runtime_plugin"),
           SIMPLE_LIB=os.path.join(ROOT, "spl_stubs", "lib"), OMP_NUM_THREADS="1")


def step(layers, checkpointed):
    """One step's peak in MB (the profiler's memory events summed in order) and the gradient sum."""
    torch.manual_seed(1)
    x = torch.randn(8192, 256, requires_grad=True)
    for p in (p for layer in layers for p in layer.parameters()):
        p.grad = None
    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        if checkpointed:
            out = checkpoint_sequential(layers, 4, x, use_reentrant=True)
        else:
            h = x
            for f in layers:
                h = f(h)
            out = h
        out.sum().backward()
    # Every allocation and free, in order (the raw events: the function events attribute most
    # of them to operators).
    events = sorted((e for e in prof.kineto_results.events() if e.name() == "[memory]"), key=lambda e: e.start_ns())
    live = peak = 0
    for e in events:
        live += e.nbytes()
        peak = max(peak, live)
    return peak / 1048576.0, x.grad.sum().item()


def main():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    layers = []
    for _ in range(16):
        layers += [torch.nn.Linear(256, 256), torch.nn.Tanh()]
    plain, g_plain = step(layers, False)
    ckpt, g_ckpt = step(layers, True)
    simple = subprocess.run([os.path.join(ROOT, "build", "host", "splrun"),
                             os.path.join(ROOT, "bench", "checkpoint_memory.spl")],
                            capture_output=True, text=True, env=ENV, check=True).stdout
    print(simple.rstrip())
    print(f"python plain: {plain:.1f} MB (grad sum {g_plain})")
    print(f"python checkpoint: {ckpt:.1f} MB (grad sum {g_ckpt})")


if __name__ == "__main__":
    main()
