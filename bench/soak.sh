#!/usr/bin/env bash
# A soak run: bench/soak.spl trains the digits CNN for --steps steps (a prefetching
# DataLoader, Adam under OneCycleLR, a tqdm bar, a checkpoint every --every steps, the first
# loaded back and checked) and reports every --every steps: live plugin handles, the host's
# live objects, RSS now (the process reads its own /proc/self/statm at that step), max RSS
# (VmHWM, the kernel's high-water mark, which this script reads from /proc/PID/status as the
# report line arrives: a mark, so no peak between samples is missed), the mean loss and the
# validation accuracy. At the end it prints the table, then the verdict:
#   handles flat: live handles at the last report within HANDLE_SLACK of those at the first;
#   memory flat:  the process's peak RSS at exit (GNU time's %M, the exit rusage) less than
#                 5% above max RSS at the second report (the first covers the warm-up).
# Exit status 0 when both hold, 1 when not, 2 on bad options or a failed run.
#   bench/soak.sh                          # 20,000 steps, a report every 1,000
#   bench/soak.sh --steps 300 --every 100  # the short sample scripts/test.sh runs
# --threads N: set_num_threads(N) (ATen's intra-op threads; 0, the default, leaves LibTorch's
# choice). On a shared, loaded machine the OpenMP threads of each step's parallel regions
# spin waiting for descheduled ones: --threads 1, or OMP_WAIT_POLICY=passive in the
# environment, keeps a long run's time to its own work.
# --quiet: the training output (progress bar) only when the run fails; otherwise it goes to
# stderr. SOAK_LOG=FILE keeps a copy of it.
set -euo pipefail
cd "$(dirname "$0")/.."

steps=20000
every=1000
threads=0
quiet=0
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
    --every) every=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
    --threads) threads=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
    --quiet) quiet=1; shift ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "soak.sh: unknown option '$1' (--steps N, --every N, --threads N, --quiet)" >&2; exit 2 ;;
  esac
done
for v in "$steps" "$every" "$threads"; do
  case "$v" in '' | *[!0-9]*) echo "soak.sh: --steps, --every and --threads take integers, got '$v'" >&2; exit 2 ;; esac
done
if [ "$every" -le 0 ] || [ "$steps" -lt $((2 * every)) ] || [ $((steps % every)) -ne 0 ]; then
  echo "soak.sh: --steps ($steps) must be a multiple of --every ($every) giving at least two reports" >&2
  exit 2
fi

# Live handles differ by one between reports when one falls on an epoch's last batch and the
# other mid-epoch: mid-epoch the prefetching loader holds the next batch's gather job.
HANDLE_SLACK=${HANDLE_SLACK:-1}
SPLRUN=${SPLRUN:-build/host/splrun}
PROGRAM=${SOAK_PROGRAM:-bench/soak.spl} # another program printing the same lines: to check the verdict
digits=$(ls .venv/lib/python3*/site-packages/sklearn/datasets/data/digits.csv.gz 2>/dev/null | head -1 || true)
if [ -z "$digits" ]; then echo "soak.sh: scikit-learn's digits.csv.gz not found under .venv" >&2; exit 2; fi
if [ ! -x "$SPLRUN" ]; then echo "soak.sh: $SPLRUN not built (ninja -C build)" >&2; exit 2; fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spl-soak.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=${SOAK_LOG:-$tmp/train.log}
: >"$log"
page_kb=$(($(getconf PAGESIZE) / 1024))
# the process's peak RSS from its exit rusage, where GNU time is installed
timer=()
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -f 'soak-peak-kb %M' -o "$tmp/peak"); fi
# a line of training output: to the log, and to stderr unless --quiet
show() { tee -a "$log" | if [ $quiet = 1 ]; then cat >/dev/null; else cat >&2; fi; }

table="$tmp/table"
set +e
"${timer[@]}" "$SPLRUN" "$PROGRAM" "$digits" "$tmp" "$steps" "$every" "$threads" 2>&1 | {
  pid=""
  while IFS= read -r line; do
    case "$line" in
      soak-pid\ *) pid=${line#soak-pid } ;;
      soak-report\ *)
        hwm_kb=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        set -- ${line#soak-report }
        printf '%s %s %s %s %s %s %s\n' "${1#step=}" "${2#live=}" "${3#objects=}" \
          $((${4#rss_pages=} * page_kb)) "${hwm_kb:-nan}" "${5#loss=}" "${6#val_acc=}" >>"$table"
        printf '%s  max_rss_kb=%s\n' "$line" "${hwm_kb:-?}" | show ;;
      *) printf '%s\n' "$line" | show ;;
    esac
  done
}
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  [ $quiet = 1 ] && tail -n 20 "$log" >&2
  echo "soak.sh: splrun failed (exit $rc)" >&2
  exit 2
fi
reports=$(cat "$table" 2>/dev/null | wc -l)
if [ "$reports" -ne $((steps / every)) ]; then
  echo "soak.sh: expected $((steps / every)) reports, got $reports" >&2
  exit 2
fi
peak_kb=$(awk '$1 == "soak-peak-kb" { print $2 }' "$tmp/peak" 2>/dev/null || true)

printf '%8s %13s %13s %9s %13s %8s %8s\n' step live_handles host_objects "RSS MB" "max RSS MB" loss val_acc
awk '{ printf "%8d %13d %13d %9.1f %13.1f %8.4f %8.4f\n", $1, $2, $3, $4 / 1024, $5 / 1024, $6, $7 }' "$table"
awk -v slack="$HANDLE_SLACK" -v peak="${peak_kb:-}" '
  NR == 1 { h0 = $2; o0 = $3; s1 = $1 }
  NR == 2 { m2 = $5; r2 = $4; s2 = $1 }
  { h = $2; o = $3; m = $5; r = $4; s = $1 }
  END {
    end = (peak != "" && peak + 0 > m) ? peak : m
    dh = h - h0; growth = (end - m2) / m2 * 100
    handles_ok = (dh <= slack && dh >= -slack)
    memory_ok = (growth < 5)
    printf "live handles: %d at step %d, %d at step %d (%+d; flat within %d): %s\n", h0, s1, h, s, dh, slack, handles_ok ? "flat" : "GROWING"
    printf "host objects: %d at step %d, %d at step %d (%+d)\n", o0, s1, o, s, o - o0
    printf "RSS: %.1f MB at step %d, %.1f MB at step %d (%+.2f%%)\n", r2 / 1024, s2, r / 1024, s, (r - r2) / r2 * 100
    printf "max RSS: %.1f MB at step %d, %.1f MB at the end (%s) (%+.2f%%; flat under 5%%): %s\n", m2 / 1024, s2, end / 1024,
      (peak != "" && peak + 0 > m) ? "peak at exit" : "step " s, growth, memory_ok ? "flat" : "GROWING"
    printf "verdict: %s\n", (handles_ok && memory_ok) ? "FLAT (no leak)" : "LEAK"
    exit !(handles_ok && memory_ok)
  }' "$table"
