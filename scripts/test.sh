#!/usr/bin/env bash
# Runs every test (meson test: generator, plugin, host, Simple specs) and
# ends with the line "N passed, N failed". Assumes scripts/setup.sh ran.
set -uo pipefail
cd "$(dirname "$0")/.."
ninja -C build >/dev/null || exit 1
meson test -C build --print-errorlogs --num-processes 2 "$@"
status=$?
python3 - <<'PY'
import json
passed = failed = skipped = 0
for line in open("build/meson-logs/testlog.json"):
    result = json.loads(line)["result"]
    if result in ("OK", "EXPECTEDFAIL"): passed += 1
    elif result == "SKIP": skipped += 1
    else: failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
PY
exit $status
