#!/usr/bin/env bash
# Simple (splrun + lib.torch + the plugin) against Python eager PyTorch on the same LibTorch,
# in one script: a 100,000-add loop (also through lib.torch's word flavour), an MLP SGD step on raw tensors, nn-level training steps
# (an MLP and a small CNN built from lib.torch.nn / torch.nn), and an Adam step over 9.8M
# parameters (default and fused), and a DataLoader epoch (per item, gathered in the plugin,
# prefetched on a plugin thread; alone and with a training step). Each pair runs ROUNDS times, alternating Simple and Python
# (the machine's load drifts); the best time of each is compared. Ratios are Simple / Python.
set -euo pipefail
cd "$(dirname "$0")/.."
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=spl_stubs/lib
ROUNDS=${ROUNDS:-3}
out=""
for _ in $(seq "$ROUNDS"); do
  # the same add loop through lib.torch's word flavour (the real Simple runtime's convention)
  out+=$(SIMPLE_LIB=build/share/spl-torch/word-lib build/host/splrun --simple-runtime-ffi bench/add_loop.spl | sed 's/^simple add loop/simple word add loop/')$'\n'
  out+=$(build/host/splrun bench/add_loop.spl; build/host/splrun bench/mlp_step.spl; build/host/splrun bench/nn_step.spl; build/host/splrun bench/optim_step.spl; build/host/splrun bench/loader_epoch.spl)$'\n'
  out+=$(.venv/bin/python bench/python_baseline.py; .venv/bin/python bench/nn_step.py; .venv/bin/python bench/optim_step.py; .venv/bin/python bench/loader_epoch.py)$'\n'
done
python3 - "$out" <<'PY'
import re, sys
best = {}
calls = {}
for line in sys.argv[1].splitlines():
    m = re.match(r"(simple|python) (.+?):? ([0-9.]+) (ns|us|ms) per (add|step|epoch)(?:, (\d+) plugin calls)?", line)
    if not m:
        continue
    key = (m.group(1), m.group(2).rstrip(":"))
    best[key] = min(best.get(key, float("inf")), float(m.group(3)))
    if m.group(6):
        calls[key[1]] = int(m.group(6))
rows = [("1-element add (ns)", "add loop", "add loop", "target <= 1.0x"),
        ("1-element add, word flavour (ns)", "word add loop", "add loop", "--simple-runtime-ffi"),
        ("MLP SGD step, raw tensors (us)", "mlp step", "mlp step", ""),
        ("nn MLP step (us)", "nn mlp step", "nn mlp step", "target <= 1.0x"),
        ("nn CNN step (us)", "nn cnn step", "nn cnn step", "target <= 1.0x"),
        ("Adam step, default vs foreach (us)", "adam default", "adam foreach", "target <= 1.0x"),
        ("Adam step, default vs PyTorch's CPU default (us)", "adam default", "adam loop", ""),
        ("Adam step, fused vs fused (us)", "adam fused", "adam fused", "target <= 1.0x"),
        ("loader epoch, data only, per item (ms)", "loader data per item", "loader data", ""),
        ("loader epoch, data only, default (ms)", "loader data default", "loader data", ""),
        ("loader epoch, data only, gathered at once (ms)", "loader data at once", "loader data", ""),
        ("loader epoch, data only, prefetch (ms)", "loader data prefetch", "loader data", ""),
        ("loader epoch + MLP step, per item (ms)", "loader train per item", "loader train", ""),
        ("loader epoch + MLP step, default (ms)", "loader train default", "loader train", ""),
        ("loader epoch + MLP step, gathered at once (ms)", "loader train at once", "loader train", ""),
        ("loader epoch + MLP step, prefetch (ms)", "loader train prefetch", "loader train", "")]
for label, s, p, note in rows:
    a, b = best[("simple", s)], best[("python", p)]
    print(f"{label:50s} Simple {a:9.0f}   Python {b:9.0f}   ratio {a / b:.2f}x {note}")
for name, n in calls.items():
    print(f"plugin calls per {name} step: {n}")
PY
