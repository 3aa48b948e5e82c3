#!/usr/bin/env bash
# The main job: a real training run through libspl_torch.so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x build/host/splrun ] && [ -f examples/cnn.spl ]; then
  exec build/host/splrun examples/cnn.spl
fi
SPL_TORCH_PLUGIN=build/runtime_plugin/libspl_torch.so exec build/examples/train_linear_abi
