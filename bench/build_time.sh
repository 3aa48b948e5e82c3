#!/usr/bin/env bash
# The plugin's build times (issue 14): a clean build of libspl_torch.so, and its rebuild after a
# one-operator change of the generator's input (one operator excluded by the policy file), in a
# scratch copy of the working tree, so that the checkout's own build/ is left alone.
#
#     bench/build_time.sh            # about 2 minutes on 2 cores
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$WORK" 2>/dev/null || true)
TORCH=$("$ROOT/.venv/bin/python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
meson setup "$WORK/build" "$WORK" -Dlibtorch="$TORCH" >/dev/null
ninja -C "$WORK/build" codegen/torch-codegen >/dev/null # the generator is not part of the figure

seconds() {
  local start
  start=$(date +%s.%N)
  ninja -C "$WORK/build" runtime_plugin/libspl_torch.so >/dev/null
  python3 -c "print(round($(date +%s.%N) - $start, 1))"
}

echo "clean plugin build: $(seconds) s on $(nproc) cores"
python3 - "$WORK/schema/policy.json" <<'PY'
import json, sys
path = sys.argv[1]
policy = json.load(open(path))
policy["exclude_operators"].append({"operator": "frac.out", "reason": "bench/build_time.sh"})
json.dump(policy, open(path, "w"), indent=2)
PY
echo "after a one-operator change (frac.out excluded): $(seconds) s"
