#!/usr/bin/env bash
# Simple vs Python torch.distributed on this machine, 2 ranks over loopback (Gloo): all_reduce of
# 1 M and 16 M floats, and a DDP training step. Each side runs ROUNDS times, alternating; the
# ratios are Simple's best over Python's best (below 1: Simple is faster).
#   bench/distributed/compare.sh [ROUNDS]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
export SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=spl_stubs/lib GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1
port=29650
out=""
for _ in $(seq "$ROUNDS"); do
  for prog in all_reduce ddp_step; do
    port=$((port + 2))
    out+=$(build/host/splrun --nproc-per-node 2 --master-port "$port" "bench/distributed/$prog.spl" 2>/dev/null)$'\n'
    out+=$(.venv/bin/torchrun --nproc-per-node 2 --master-port "$((port + 1))" "bench/distributed/$prog.py" 2>/dev/null)$'\n'
  done
done
printf '%s' "$out" | .venv/bin/python -c '
import re, sys
best = {}
for line in sys.stdin:
    m = re.match(r"(simple|python) (.+): ([0-9.e+-]+) ms", line.strip())
    if m:
        key = (m.group(1), m.group(2))
        best[key] = min(best.get(key, 1e30), float(m.group(3)))
for what in sorted({k[1] for k in best}):
    s, p = best.get(("simple", what)), best.get(("python", what))
    if s and p:
        print(f"{what}: simple {s:.3f} ms, python {p:.3f} ms, ratio {s / p:.2f}x")
'
