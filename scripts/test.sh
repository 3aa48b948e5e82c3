#!/usr/bin/env bash
# Runs every test (meson test: generator, plugin, host, Simple specs), on
# build/, build-1.13/ (where configured) and the sanitized build-asan/,
# and ends with the line "N passed, N failed, N skipped". Assumes scripts/setup.sh ran.
#
#   scripts/test.sh                     everything, on every build
#   scripts/test.sh --suite host ...    ARGS go to `meson test` on build/ only: a selection
#                                       (a suite or test name) runs there alone, and each
#                                       name must match a test (a misspelt one fails)
#
# Passed and failed count meson tests; skipped counts the meson tests skipped and, inside
# the tests that ran, the spec examples (`splrun test`'s "N passed, N failed, N skipped")
# and doctest cases skipped, so that a skip never reads as a pass.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! build_log=$(ninja -C build 2>&1); then
  printf '%s\n' "$build_log" | tail -40
  echo "test.sh: build/ does not build"
  exit 1
fi

# `meson test` exits 0 without running anything (or rewriting its log) for a suite or test
# name that matches nothing: each name given must list a test.
status=0
broken=0 # runs that could not count their tests (a build failure, no log, a misspelt name): failed
selection=0
misspelt=0 # names that match no test (then build/ writing no log is that same failure)
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  arg=${args[$i]}
  select=()
  case "$arg" in
    --suite) i=$((i + 1)); select=(--suite "${args[$i]:-}") ;;
    --suite=*) select=(--suite "${arg#--suite=}") ;;
    --no-suite | --repeat | --num-processes | --timeout-multiplier | -t | --setup | --test-args | --wrapper | \
      --gdb-path | --logbase | --max-lines) i=$((i + 1)) ;; # options that take a value
    -*) ;;
    *) select=("$arg") ;;
  esac
  [ ${#select[@]} -eq 0 ] && continue
  selection=1
  if ! meson test -C build --no-rebuild --list "${select[@]}" >/dev/null 2>&1; then
    echo "test.sh: no test matches ${select[*]} (meson test -C build --list shows the names)"
    misspelt=$((misspelt + 1))
    broken=$((broken + 1))
    status=1
  fi
done

# Each build's log is deleted first: a run that writes none (or stops early) must not be
# counted from the previous run's. The log has its own name (meson-logs/test.sh.json), so
# that a `meson test` run by hand at the same time does not write into it.
logs=()
planned=() # how many tests each log must hold: fewer means the run was interrupted
run_build() { # DIR, then what `meson test` gets
  local dir=$1
  shift
  rm -f "$dir/meson-logs/test.sh.json"
  meson test -C "$dir" --logbase test.sh --print-errorlogs --num-processes 2 "$@" || status=1
  if [ -f "$dir/meson-logs/test.sh.json" ]; then
    logs+=("$dir/meson-logs/test.sh.json")
    planned+=("$(meson test -C "$dir" --no-rebuild --list "$@" 2>/dev/null | grep -c ' / ')")
  else
    echo "test.sh: $dir/ wrote no test log (nothing ran there)"
    [ "$dir" = build ] && [ $misspelt -gt 0 ] || broken=$((broken + 1))
    status=1
  fi
}

echo "== LibTorch $(grep -E '^torch==' torch-requirements.txt | cut -d= -f3) (the pin), build/"
run_build build "$@"
if [ $selection = 1 ]; then
  echo "== a selection was given: build-1.13/ and build-asan/ are not run"
else
  if [ -f build-1.13/build.ninja ]; then
    # The plugin suites against Debian's LibTorch 1.13, and its installed tree (the lib.torch
    # generated for 1.13: xor.spl and the tests/spl specs that apply to it).
    echo "== Debian's LibTorch, build-1.13/"
    run_build build-1.13 plugin "cuda linkage" "cuda linkage (SPL_TORCH_CUDA=0)" "cuda linkage (SPL_TORCH_CUDA=1)" \
      header_frontend gpu install
  fi
  if [ "${SPL_TORCH_SKIP_SANITIZE:-0}" != 1 ]; then
    # Every suite again, built with ASan + UBSan in build-asan/ (scripts/sanitize.sh
    # configures and builds it the first time: 15-20 minutes on 2 cores; then
    # incrementally). SPL_TORCH_SKIP_SANITIZE=1 leaves it out. Its tests count in the total.
    echo "== sanitized (AddressSanitizer + UndefinedBehaviorSanitizer), build-asan/"
    rm -f build-asan/meson-logs/testlog.json
    scripts/sanitize.sh || status=1
    if [ -f build-asan/meson-logs/testlog.json ]; then
      logs+=(build-asan/meson-logs/testlog.json)
      planned+=("$(meson test -C build-asan --no-rebuild --list 2>/dev/null | grep -c ' / ')")
    else
      echo "test.sh: build-asan/ wrote no test log (nothing ran there)"
      broken=$((broken + 1))
      status=1
    fi
  fi
fi
# Checks run after the suites, not as meson tests, each counted as one test (its result
# written as a meson log line, so a failure fails the run). Left out for a selection.
run_check() { # NAME, then the command
  local name=$1
  shift
  echo "== $name ($*)"
  local result=OK
  "$@" || { result=FAIL; status=1; }
  local log="build/meson-logs/check-${name// /-}.json"
  printf '{"name": "%s", "result": "%s"}\n' "$name" "$result" >"$log"
  logs+=("$log")
  planned+=(1)
}
if [ $selection = 0 ]; then
  # Three committed mutations, each of which a suite must fail on. It rebuilds build/ with a
  # mutated source, which suites running beside it would read. SPL_TORCH_SKIP_MUTATIONS=1: not run.
  [ "${SPL_TORCH_SKIP_MUTATIONS:-0}" = 1 ] || run_check "mutation sample" scripts/mutation_check.sh --sample 3
  # The soak run's sample: live handles and max RSS flat over 300 steps (bench/soak.sh runs 20,000).
  run_check "soak sample" bench/soak.sh --steps 300 --every 100 --threads 1 --quiet
  # The libFuzzer targets (tests/fuzz/README.md), 30 s each: every committed regression input
  # replayed, then fuzzing from the seeds; any crash, leak, hang or sanitizer report fails.
  # SPL_TORCH_SKIP_FUZZ=1: not run.
  [ "${SPL_TORCH_SKIP_FUZZ:-0}" = 1 ] || run_check "fuzzing" scripts/fuzz.sh 30
fi
# The figures the suites measure, from their logs: coverage, generation and
# header-scan times, front-end agreement, operators exercised.
echo "== measured"
grep -h -o -E "coverage: .*|generation wall time: .*|header scan: .*|[0-9]+ operators scanned in .*|distinct operator entry points .*" \
  build/meson-logs/test.sh.txt build-1.13/meson-logs/test.sh.txt 2>/dev/null | sort -u || true
python3 - "$broken" "${#logs[@]}" "${logs[@]}" "${planned[@]}" <<'PY' || status=1
import json, re, sys
broken, n = int(sys.argv[1]), int(sys.argv[2])
logs, planned = sys.argv[3:3 + n], [int(p) for p in sys.argv[3 + n:]]
spec_summary = re.compile(r"^\d+ passed, \d+ failed(?:, (\d+) skipped)?$")  # splrun test's last line
doctest_summary = re.compile(r"^\[doctest\] test cases:.*\|\s*(\d+) skipped\s*$")
passed = failed = skipped = spec_skipped = doctest_skipped = 0
failures = []  # (log, result): named again at the end, where a CI log's tail shows them
failed += broken
def read(log):
    global failed
    results = []
    for n, line in enumerate(open(log), 1):
        try:
            results.append(json.loads(line))
        except ValueError:  # two writers at once: the test it was cannot be counted
            print(f"test.sh: {log} line {n} is not JSON: counted as a failed test")
            failed += 1
    return results
for log, want in zip(logs, planned):
    results = read(log)
    if len(results) < want:  # interrupted: the tests that did not run count as failed
        print(f"test.sh: {log} holds {len(results)} of the {want} tests (the run stopped early)")
        failed += want - len(results)
    for r in results:
        if r["result"] in ("OK", "EXPECTEDFAIL"): passed += 1
        elif r["result"] == "SKIP": skipped += 1
        else:
            failed += 1
            failures.append((log, r))
        for line in (r.get("stdout") or "").splitlines():
            if (m := spec_summary.match(line)) and m.group(1): spec_skipped += int(m.group(1))
            elif m := doctest_summary.match(line): doctest_skipped += int(m.group(1))
for log, r in failures:
    print(f"== failed: {r['name']} ({r['result']}, {log}); the end of its output:")
    for line in ((r.get("stdout") or "") + (r.get("stderr") or "")).splitlines()[-25:]:
        print(f"   | {line}")
if spec_skipped or doctest_skipped:
    print(f"skipped inside tests that ran: {spec_skipped} spec examples, {doctest_skipped} doctest cases")
print(f"{passed} passed, {failed} failed, {skipped + spec_skipped + doctest_skipped} skipped")
sys.exit(1 if failed else 0)
PY
exit $status
