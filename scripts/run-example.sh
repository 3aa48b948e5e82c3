#!/usr/bin/env bash
# The main job: a real training run through libspl_torch.so. `scripts/run-example.sh` runs
# examples/cnn.spl; `scripts/run-example.sh NAME` runs examples/NAME.spl (digits gets the path
# of scikit-learn's digits.csv.gz in .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-cnn}
args=()
if [ "$name" = digits ]; then
  args=("$(ls .venv/lib/python3*/site-packages/sklearn/datasets/data/digits.csv.gz | head -1)" build/digits-best.pt)
fi
if [ -x build/host/splrun ] && [ -f "examples/$name.spl" ]; then
  exec build/host/splrun "examples/$name.spl" "${args[@]}"
fi
SPL_TORCH_PLUGIN=build/runtime_plugin/libspl_torch.so exec build/examples/train_linear_abi
