#!/usr/bin/env bash
# Simple (splrun + lib.torch + the plugin) against Python eager PyTorch on the
# same LibTorch, in one script: a 100,000-add loop, an MLP SGD step on raw tensors, and
# nn-level training steps (an MLP and a small CNN built from lib.torch.nn / torch.nn).
# Prints both timings and the ratios (Simple / Python; target <= 1.0 for adds).
set -euo pipefail
cd "$(dirname "$0")/.."
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=spl_stubs/lib
simple_add=$(build/host/splrun bench/add_loop.spl | grep -o '[0-9.]* ns' | cut -d' ' -f1)
simple_mlp=$(build/host/splrun bench/mlp_step.spl | grep -o '[0-9.]* us' | cut -d' ' -f1)
simple_nn=$(build/host/splrun bench/nn_step.spl)
python_out=$(.venv/bin/python bench/python_baseline.py)
python_nn=$(.venv/bin/python bench/nn_step.py)
python_add=$(echo "$python_out" | grep "add loop" | grep -o '[0-9.]* ns' | cut -d' ' -f1)
python_mlp=$(echo "$python_out" | grep "mlp step" | grep -o '[0-9.]* us' | cut -d' ' -f1)
us() { echo "$1" | grep "$2" | grep -o '[0-9.]* us' | cut -d' ' -f1; }
python3 - "$simple_add" "$python_add" "$simple_mlp" "$python_mlp" \
  "$(us "$simple_nn" "nn mlp")" "$(us "$python_nn" "nn mlp")" "$(us "$simple_nn" "nn cnn")" "$(us "$python_nn" "nn cnn")" <<'PY'
import sys
sa, pa, sm, pm, snm, pnm, snc, pnc = map(float, sys.argv[1:])
print(f"1-element add:   Simple {sa:8.0f} ns   Python {pa:8.0f} ns   ratio {sa / pa:.2f}x (target <= 1.0x)")
print(f"MLP SGD step:    Simple {sm:8.0f} us   Python {pm:8.0f} us   ratio {sm / pm:.2f}x")
print(f"nn MLP step:     Simple {snm:8.0f} us   Python {pnm:8.0f} us   ratio {snm / pnm:.2f}x (target <= 1.0x)")
print(f"nn CNN step:     Simple {snc:8.0f} us   Python {pnc:8.0f} us   ratio {snc / pnc:.2f}x (target <= 1.0x)")
PY
