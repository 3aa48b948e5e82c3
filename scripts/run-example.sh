#!/usr/bin/env bash
# The main job: a real training run through libspl_torch.so. `scripts/run-example.sh` runs
# examples/cnn.spl; `scripts/run-example.sh NAME` runs examples/NAME.spl (digits and ddp_digits
# get the path of scikit-learn's digits.csv.gz in .venv; ddp_digits runs on 2 processes).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-cnn}
args=()
launcher=()
if [ "$name" = digits ] || [ "$name" = ddp_digits ]; then
  args=("$(ls .venv/lib/python3*/site-packages/sklearn/datasets/data/digits.csv.gz | head -1)" "build/$name-best.pt")
fi
# ddp_digits trains on 2 processes: splrun's launcher, as torchrun would start it
if [ "$name" = ddp_digits ]; then launcher=(--nproc-per-node 2); fi
if [ -x build/host/splrun ] && [ -f "examples/$name.spl" ]; then
  exec build/host/splrun "${launcher[@]}" "examples/$name.spl" "${args[@]}"
fi
SPL_TORCH_PLUGIN=build/runtime_plugin/libspl_torch.so exec build/examples/train_linear_abi
