#!/usr/bin/env bash
# Regenerates the committed snapshot from the LibTorch that build/ is
# configured against: generated/{ir.json,coverage.txt,type-table.md} and
# spl_stubs/lib/torch/{ffi,ops}.spl. Run after changing the pin in
# torch-requirements.txt (scripts/setup.sh installs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ninja -C build codegen/torch-codegen runtime_plugin/ffi.spl runtime_plugin/ops.spl >/dev/null
cp build/runtime_plugin/{ir.json,coverage.txt,type-table.md} generated/
cp build/runtime_plugin/ffi.spl build/runtime_plugin/ops.spl spl_stubs/lib/torch/
grep -m1 coverage: generated/coverage.txt
echo "regenerate: generated/ and spl_stubs/lib/torch/{ffi,ops}.spl updated; review with git diff"
