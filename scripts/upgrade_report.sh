#!/usr/bin/env bash
# Regenerates generated/upgrade-<old>-to-<new>.{txt,json}: what moving from an
# older LibTorch to the pinned one (generated/ir.json) changes for spl-torch:
# operators added, removed and changed, the Simple `extern fn` declarations
# that change, and the hand-written lines of spl_stubs/lib/torch that break.
#
#   scripts/upgrade_report.sh OLD_INCLUDE_DIR [OLD_VERSION]   (scanned with the header front-end)
#   scripts/upgrade_report.sh OLD_IR.json
#
# e.g. scripts/upgrade_report.sh /usr/include   (Debian's libtorch-dev)
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/upgrade_report.sh OLD_INCLUDE_DIR [OLD_VERSION] | OLD_IR.json}
version=${2:-}
ninja -C build codegen/torch-codegen >/dev/null
codegen=build/codegen/torch-codegen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -d "$old" ]; then
  # Debian's 1.13.1 headers say TORCH_VERSION_PATCH 0; the package knows better.
  if [ -z "$version" ] && [ "$(realpath "$old")" = /usr/include ] &&
     deb=$(dpkg-query -W -f='${Version}' libtorch-dev 2>/dev/null); then
    version=${deb%%[+-]*}
  fi
  "$codegen" ir --headers "$old" ${version:+--version "$version"} -o "$tmp/old-ir.json" >/dev/null
  old_ir=$tmp/old-ir.json
else
  old_ir=$old
fi

version_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["libtorch_version"])' "$1"; }
base=generated/upgrade-$(version_of "$old_ir")-to-$(version_of generated/ir.json)
"$codegen" diff "$old_ir" generated/ir.json -o "$base.txt"
"$codegen" diff "$old_ir" generated/ir.json --json -o "$base.json"
echo "upgrade_report: $base.txt and $base.json written"
