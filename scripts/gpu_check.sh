#!/usr/bin/env bash
# The whole GPU check in one call, on a machine with an NVIDIA GPU, PyTorch,
# meson and ninja, and no network (the device tool: carry .gpukit, made by
# scripts/make_gpu_kit.sh). Builds the plugin against that machine's torch,
# runs the GPU tests, the plugin and generator suites, the Simple specs, and
# the call-overhead benchmark on CPU and GPU. Logs go to $OUT when set.
set -euo pipefail
cd "$(dirname "$0")/.."
LOG=${OUT:-/tmp}

if [ -d .gpukit ]; then
  DEPS=/tmp/spl-deps
  mkdir -p "$DEPS"
  for f in .gpukit/*.deb; do dpkg -x "$f" "$DEPS"; done
  export PATH="$DEPS/usr/bin:$PATH"
  export PKG_CONFIG_SYSROOT_DIR="$DEPS"
  export PKG_CONFIG_LIBDIR="$DEPS/usr/lib/x86_64-linux-gnu/pkgconfig:$DEPS/usr/share/pkgconfig"
  export CMAKE_PREFIX_PATH="$DEPS/usr"
  export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

TORCH=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')
echo "== torch: $TORCH ($(python3 -c 'import torch; print(torch.__version__, torch.cuda.get_device_name(0))'))"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true

[ -f build-gpu/build.ninja ] || meson setup build-gpu -Dlibtorch="$TORCH" > "$LOG/gpu-setup.log" 2>&1 \
  || { tail -40 "$LOG/gpu-setup.log"; exit 1; }
start=$(date +%s.%N)
ninja -C build-gpu > "$LOG/gpu-build.log" 2>&1 || { grep -E "error|FAILED" "$LOG/gpu-build.log" | head -40; exit 1; }
echo "== build: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s with $(nproc) cores"

echo "== tests"
meson test -C build-gpu --print-errorlogs --num-processes 4 > "$LOG/gpu-tests.log" 2>&1 && status=0 || status=$?
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$LOG/gpu-tests.log" || true
grep -E "test cases:|assertions:" "$LOG/gpu-tests.log" || true

echo "== call overhead, CPU then GPU"
plugin=build-gpu/runtime_plugin/libspl_torch.so
for device in cpu cuda:0; do
  SPL_TORCH_PLUGIN=$plugin SPL_BENCH_DEVICE=$device build-gpu/bench/bench_call_overhead \
    --benchmark_min_time=0.2 2>/dev/null | tail -2
done
exit $status
