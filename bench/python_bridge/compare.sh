#!/usr/bin/env bash
# A call from Simple into the embedded Python (lib.python) against the same call made from
# Python itself, on this machine's CPU: `def f(x): return x` with an int and with a Tensor
# (bridge.spl and bridge.py, the same loops), in time (the best of 5 loops per round, the sides
# run alternately, ROUNDS times each) and in instructions (callgrind, as bench/instructions.py
# counts: the difference of two call counts; about 6 minutes on 2 cores, most of it torch's
# import under valgrind; COUNT=0 leaves it out); and `lambda t: t` on a 1-element and a
# 100,000,000-element float32 tensor (400 MB): a crossing is the same TensorImpl, no copy, so
# both cost the same; and a Simple function called by Python on the interpreter's thread and on
# another Python thread (handed to the interpreter thread), against a Python lambda called the
# same ways. Not part of the tests.
#   bench/python_bridge/compare.sh [ROUNDS]      (default 3)
# SIMPLE_LIB, when set, names the lib to run (a copy pinned while the tree changes); spl_stubs/lib else.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
[ -f build/runtime_plugin/python/libspl_python.so ] || { echo "compare.sh: libspl_python.so is not built (lib.python)" >&2; exit 1; }
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=${SIMPLE_LIB:-spl_stubs/lib} OMP_NUM_THREADS=1 PYTHONHASHSEED=0
out=""
for _ in $(seq "$ROUNDS"); do
  out+=$(build/host/splrun bench/python_bridge/bridge.spl)$'\n'
  out+=$(.venv/bin/python bench/python_bridge/bridge.py)$'\n'
done
printf '%s' "$out" | .venv/bin/python bench/python_bridge/table.py
