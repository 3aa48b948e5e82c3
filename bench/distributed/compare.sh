#!/usr/bin/env bash
# Simple vs Python torch.distributed on this machine, 2 ranks over loopback (Gloo): all_reduce of
# 1 M and 16 M floats, and a DDP training step. Each side runs ROUNDS times, alternating; for each
# measurement it prints both sides' best (the ratio of bests) and the median of the rounds' bests
# (below 1: Simple is faster). On a loaded 2-core machine a single best swings by +-15% from one
# call of this script to the next: the median of the rounds is the steadier of the two.
#   bench/distributed/compare.sh [ROUNDS]      (default 3)
# SIMPLE_LIB, when set, names the lib to run (a copy pinned while the tree changes); spl_stubs/lib else.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=${SIMPLE_LIB:-spl_stubs/lib} GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1
log=$(mktemp /tmp/compare_distributed.XXXXXX)
port=$((29650 + RANDOM % 100 * 20)) # a base of its own: two calls in a row do not share ports
out=""
# One run's output. A run that fails before printing its figures stops the comparison, naming
# the run and keeping its stderr; one that fails after them (Python's DDP step now and then
# aborts in its teardown, after destroy_process_group: "terminate called without an active
# exception") is said on stderr and its figures kept.
run() {
  local got status=0
  got=$("$@" 2>"$log") || status=$?
  printf '%s\n' "$got"
  if [ "$status" -ne 0 ]; then
    if grep -q ' ms' <<<"$got"; then
      echo "compare.sh: $* exited with $status after printing its figures: $(grep -m1 -v '^\*\|OMP_NUM' "$log")" >&2
    else
      echo "compare.sh: failed: $* (its stderr: $log)" >&2
      grep -v '^ \|^Traceback\|^\*\|OMP_NUM' "$log" | head -n 20 >&2
      exit 1
    fi
  fi
}
for _ in $(seq "$ROUNDS"); do
  for prog in all_reduce ddp_step; do
    port=$((port + 2))
    out+=$(run build/host/splrun --nproc-per-node 2 --master-port "$port" "bench/distributed/$prog.spl")$'\n'
    out+=$(run .venv/bin/torchrun --nproc-per-node 2 --master-port "$((port + 1))" "bench/distributed/$prog.py")$'\n'
  done
done
rm -f "$log"
printf '%s' "$out" | .venv/bin/python bench/ratios.py
