#!/usr/bin/env bash
# Simple vs Python on whole models, on this machine's CPU: resnet18 in eval mode at batch 1 and
# 16 (lib.torch.vision.models.resnet18 vs torchvision's, the same weights file), and a small CNN
# at batch 1 and 16, Simple eager vs Python eager (target <= 1.0x) and Simple traced + frozen
# (jit.trace, then jit.freeze) or traced + optimize_for_inference (freeze, then LibTorch's
# inference passes: conv-bn folding, MKLDNN) vs Python eager of the same model (target <= 0.7x),
# and, for reference, the same on both sides. Both sides
# run with the same thread count (OMP_NUM_THREADS and set_num_threads), warm up, and report the
# best of N; the sides run alternately, ROUNDS times each. For each measurement it prints both
# sides' best (the ratio of bests) and the median of the rounds' bests (below 1: Simple is faster).
#   bench/models/compare.sh [ROUNDS] [THREADS]      (defaults 3 and 1)
# SIMPLE_LIB, when set, names the lib to run (a copy pinned while the tree changes); spl_stubs/lib else.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
THREADS=${2:-1}
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=${SIMPLE_LIB:-spl_stubs/lib} OMP_NUM_THREADS=$THREADS
weights=$(mktemp -d /tmp/compare_models.XXXXXX)
trap 'rm -rf "$weights"' EXIT
.venv/bin/python bench/models/models.py --write "$weights" 2>/dev/null
out=""
for _ in $(seq "$ROUNDS"); do
  out+=$(build/host/splrun bench/models/models.spl "$weights" "$THREADS" 2>/dev/null)$'\n'
  out+=$(.venv/bin/python bench/models/models.py "$weights" "$THREADS" 2>/dev/null)$'\n'
done
printf '%s' "$out" | .venv/bin/python bench/ratios.py
