#!/usr/bin/env bash
# Runs every test (meson test: generator, plugin, host, Simple specs), on
# build/, build-1.13/ (where configured) and the sanitized build-asan/,
# and ends with the line "N passed, N failed". Assumes scripts/setup.sh ran.
set -uo pipefail
cd "$(dirname "$0")/.."
ninja -C build >/dev/null || exit 1
echo "== LibTorch $(grep -E '^torch==' torch-requirements.txt | cut -d= -f3) (the pin), build/"
meson test -C build --print-errorlogs --num-processes 2 "$@"
status=$?
broken=0 # suites that could not even run (a build failure): counted as failed
logs=(build/meson-logs/testlog.json)
if [ -f build-1.13/build.ninja ]; then
  # The plugin suites against Debian's LibTorch 1.13, and its installed tree (the lib.torch
  # generated for 1.13: xor.spl and the tests/spl specs that apply to it).
  echo "== Debian's LibTorch, build-1.13/"
  rm -f build-1.13/meson-logs/testlog.json
  meson test -C build-1.13 --print-errorlogs --num-processes 2 plugin "cuda linkage" \
    "cuda linkage (SPL_TORCH_CUDA=0)" "cuda linkage (SPL_TORCH_CUDA=1)" header_frontend gpu install || status=1
  if [ -f build-1.13/meson-logs/testlog.json ]; then logs+=(build-1.13/meson-logs/testlog.json); else broken=$((broken + 1)); fi
fi
if [ "${SPL_TORCH_SKIP_SANITIZE:-0}" != 1 ]; then
  # Every suite again, built with ASan + UBSan in build-asan/ (scripts/sanitize.sh
  # configures and builds it the first time: 15-20 minutes on 2 cores; then
  # incrementally). SPL_TORCH_SKIP_SANITIZE=1 leaves it out. Its tests count in the total.
  echo "== sanitized (AddressSanitizer + UndefinedBehaviorSanitizer), build-asan/"
  rm -f build-asan/meson-logs/testlog.json
  scripts/sanitize.sh || status=1
  if [ -f build-asan/meson-logs/testlog.json ]; then logs+=(build-asan/meson-logs/testlog.json); else broken=$((broken + 1)); fi
fi
# The figures the suites measure, from their logs: coverage, generation and
# header-scan times, front-end agreement, operators exercised.
echo "== measured"
grep -h -o -E "coverage: .*|generation wall time: .*|header scan: .*|[0-9]+ operators scanned in .*|distinct operator entry points .*" \
  build/meson-logs/testlog.txt build-1.13/meson-logs/testlog.txt 2>/dev/null | sort -u || true
python3 - "$broken" "${logs[@]}" <<'PY'
import json, sys
passed = skipped = 0
failed = int(sys.argv[1])
for log in sys.argv[2:]:
    for line in open(log):
        result = json.loads(line)["result"]
        if result in ("OK", "EXPECTEDFAIL"): passed += 1
        elif result == "SKIP": skipped += 1
        else: failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
PY
exit $status
