#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] — builds the libFuzzer targets (tests/fuzz/README.md) into
# build-fuzz/ when needed, replays every committed regression input, then runs each target for
# SECONDS (default 30) from its committed seed corpus. Prints per target the executions,
# coverage (libFuzzer's cov: and ft:), corpus size and findings; exits non-zero on any crash,
# leak, timeout, out-of-memory or sanitizer report (the input is kept in build-fuzz/findings/).
# FUZZ_TARGETS="csv idx" runs only those. FUZZ_SEED (default 1) fixes libFuzzer's random
# seed, so a run (CI's) explores the same inputs each time and a finding reproduces; set
# another for a fresh exploration.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-30}
TARGETS=(${FUZZ_TARGETS:-source pt object safetensors npy csv idx boxed word})
BUILD=build-fuzz

# Longest input per target: room for the seeds (a checkpoint of a few KB for pt), small enough
# that the slowest inputs (source's deepest nesting, refused by the parser's depth limit) stay short.
declare -A MAX_LEN=([source]=2048 [pt]=16384 [object]=4096 [safetensors]=4096 [npy]=4096 [csv]=1024 [idx]=1024
                    [boxed]=512 [word]=1024)

command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/setup.sh installs it)"; exit 1; }
declare -A LT
while IFS='=' read -r key value; do LT[$key]=$value; done < <(python3 scripts/find_libtorch.py "")
mkdir -p "$BUILD"
# The generated entry points (boxed and word only) come from the main build's archive (GCC,
# uninstrumented; build build/ first), copied when it changed, under the build lock so that a
# concurrent rebuild cannot change its objects under the copy. Meson's archive is thin (it
# names build/'s objects): the copy is a whole archive.
if [[ " ${TARGETS[*]} " == *" boxed "* || " ${TARGETS[*]} " == *" word "* ]]; then
  ops=build/runtime_plugin/libspl_torch_ops.a
  [ -f "$ops" ] || { echo "fuzz: $ops is missing: build build/ first (scripts/setup.sh)"; exit 1; }
  if [ ! -f "$BUILD/libspl_torch_ops.a" ] || [ "$ops" -nt "$BUILD/libspl_torch_ops.a" ]; then
    flock /tmp/spl-ninja.lock sh -c "rm -f $BUILD/ops.a.new && ar rcs $BUILD/ops.a.new \$(ar t $ops)"
    mv "$BUILD/ops.a.new" "$BUILD/libspl_torch_ops.a"
  fi
fi
# The plugin's core compiles as build/'s unity files (Meson writes them when it configures build/).
unity=build/runtime_plugin/libspl_torch.so.p
ls "$unity"/spl_torch-unity*.cpp >/dev/null 2>&1 || { echo "fuzz: $unity holds no unity files: set up build/ first"; exit 1; }
defines=""
[ -f "${LT[include]}/ATen/core/Dimname.h" ] && defines="-DSPL_TORCH_HAS_DIMNAME=1"
nice -n 10 make -s -f tests/fuzz/Makefile -j"$(nproc)" BUILD="$BUILD" LIBTORCH_INCLUDE="${LT[include]}" \
  LIBTORCH_LIBDIR="${LT[libdir]}" LIBTORCH_VERSION="${LT[version]}" LIBTORCH_DEFINES="$defines" \
  OPS_ARCHIVE="$BUILD/libspl_torch_ops.a" UNITY="$unity" "${TARGETS[@]/#/$BUILD/fuzz_}"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
printf '%-12s %10s %8s %8s %8s %s\n' target execs cov ft corpus findings
for t in "${TARGETS[@]}"; do
  bin=$BUILD/fuzz_$t findings=$BUILD/findings/$t corpus=$BUILD/corpus/$t log=$BUILD/logs/$t.log
  mkdir -p "$findings" "$corpus" "$(dirname "$log")"
  rm -f "$findings"/*
  flags=(-max_len="${MAX_LEN[$t]}" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1
         -seed="${FUZZ_SEED:-1}")
  # Committed regression inputs first: each must now run clean.
  regressions=(tests/fuzz/regressions/"$t"/*)
  if [ -e "${regressions[0]}" ] && ! "$bin" "${flags[@]}" "${regressions[@]}" >"$log.regressions" 2>&1; then
    echo "fuzz: $t: a regression input fails again (build-fuzz/logs/$t.log.regressions)"; failed=1
  fi
  # A committed seed folder where the target has one (boxed and word start from nothing, and git
  # keeps no empty folder: a clean clone has none for them, which libFuzzer refuses).
  seeds=()
  [ -d tests/fuzz/corpus/"$t" ] && seeds=(tests/fuzz/corpus/"$t")
  status=0
  nice -n 10 "$bin" "${flags[@]}" -max_total_time="$SECONDS_EACH" "$corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true) # none when the target died before its first input
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last") ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  found=$(ls "$findings" | tr '\n' ' ')
  printf '%-12s %10s %8s %8s %8s %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${found:-none}"
  if [ "$status" != 0 ] || [ -n "$found" ] || [ -z "$last" ]; then
    echo "fuzz: $t: finding (exit $status); see $log"; grep -m3 -E 'ERROR|runtime error|fuzz: ' "$log" || true
    [ -n "$last" ] || { echo "fuzz: $t: it ran no input; the end of its log:"; tail -25 "$log"; }
    failed=1
  fi
done
exit $failed
