#!/usr/bin/env bash
# Builds the plugin, splrun, the generator and every test program with
# AddressSanitizer (+ LeakSanitizer) and UndefinedBehaviorSanitizer in
# build-asan/, and runs every suite there: generator, plugin (through dlopen),
# host, the lib.torch specs run by splrun, generation checks.
#
#   scripts/sanitize.sh                 configure if needed, build, run all suites
#   scripts/sanitize.sh --build-only    configure if needed, build (setup.sh uses it)
#   scripts/sanitize.sh ARGS...         ARGS go to `meson test` (a suite name, --list)
#
# The sanitizer options (with the reason for each) are build-asan's default
# `meson test` setup: scripts/sanitizers/meson.build; LibTorch's leak
# suppressions: scripts/sanitizers/lsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."

# -O1 -g1: the sanitizers' usual optimization, and line tables only, so reports carry file:line
# (debug information for LibTorch's templates was most of an instrumented compile's time);
# b_lundef=false: the plugin leaves ASan's symbols to the executable that loads it.
# ops_archive: the generated entry points come from build/'s archive, uninstrumented (as the
# fuzz targets take them): the sanitizers are for the hand-written code (runtime_plugin/meson.build).
ninja -C build --quiet runtime_plugin/libspl_torch_ops.a
options=(-Doptimization=1 -Ddebug=true -Dc_args=-g1 -Dcpp_args=-g1 -Db_sanitize=address,undefined -Db_lundef=false
         -Dops_archive="$PWD/build/runtime_plugin/libspl_torch_ops.a")
if [ ! -f build-asan/build.ninja ]; then
  meson setup build-asan "${options[@]}" >/dev/null
else
  # A build-asan/ configured with other options (older ones, or a checkout elsewhere) is set to these.
  meson configure build-asan "${options[@]}" >/dev/null
fi
# Instrumented compiles of the LibTorch-heavy sources take over 1 GB each:
# SPL_TORCH_JOBS lowers the parallelism where memory is short.
ninja -C build-asan -j"${SPL_TORCH_JOBS:-$(nproc)}" --quiet
[ "${1:-}" = --build-only ] && exit 0

# A host that is not itself instrumented (a Python ctypes host, a third-party
# host) must preload the ASan runtime to load build-asan's plugin, else ASan
# refuses to start ("ASan runtime does not come first"):
#   LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 python3 ...
# (detect_leaks=0: Python's own allocations at exit are not ours.) Every
# program the suites run is built in build-asan/, so none needs it here.
exec meson test -C build-asan --no-rebuild --print-errorlogs --num-processes 2 "$@"
