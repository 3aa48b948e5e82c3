#!/usr/bin/env bash
# The whole GPU check in one call, on a machine with an NVIDIA GPU, PyTorch,
# meson and ninja, and no network (the device tool: carry .gpukit, made by
# scripts/make_gpu_kit.sh). Builds the plugin against that machine's torch,
# runs the GPU tests, the GPU specs (tests/cuda) and the suites that exercise the plugin
# there, and the GPU benchmarks (lib.torch against Python eager on the same GPU and LibTorch
# build). Writes $OUT/gpu-report.txt (a summary) and logs; exits non-zero when
# a GPU test fails. SPL_GPU_TESTS overrides the tests run besides `gpu` (meson test names).
set -uo pipefail
cd "$(dirname "$0")/.."
LOG=${OUT:-/tmp/gpu-check}
mkdir -p "$LOG"
REPORT=$LOG/gpu-report.txt
: > "$REPORT"
report() { echo "$*" | tee -a "$REPORT"; }
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 1))"; }

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
MESON=(meson)
command -v meson >/dev/null || MESON=(python3 -m mesonbuild.mesonmain)

report "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$REPORT"
TORCH=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))') || { report "no torch"; exit 1; }
report "torch $(python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))') at $TORCH"
report "$(c++ --version | head -1); meson $("${MESON[@]}" --version); ninja $(ninja --version); $(nproc) cores"

start=$(now)
if [ ! -f build-gpu/build.ninja ]; then
  "${MESON[@]}" setup build-gpu -Dlibtorch="$TORCH" > "$LOG/gpu-setup.log" 2>&1 \
    || { tail -40 "$LOG/gpu-setup.log"; report "meson setup failed"; exit 1; }
fi
# -k 0: a test program that does not compile against this LibTorch leaves the others to run.
ninja -C build-gpu -k 0 > "$LOG/gpu-build.log" 2>&1 \
  || { grep -E "^FAILED|error:" "$LOG/gpu-build.log" | head -20 | tee -a "$REPORT"; report "build: some targets failed"; }
report "== build: $(since "$start") s (configure + clean build) with $(nproc) cores"

report "== the GPU tests"
start=$(now)
"${MESON[@]}" test -C build-gpu --no-rebuild --print-errorlogs gpu "cuda linkage" > "$LOG/gpu-tests.log" 2>&1 && status=0 || status=$?
grep -E "test cases:|assertions:|^Ok:|^Fail:|^Skipped:|Timeout:" "$LOG/gpu-tests.log" | tee -a "$REPORT"
report "gpu tests: exit $status in $(since "$start") s"

# splrun, the way a user runs lib.torch: the plugin loads LibTorch's CUDA part itself.
# A crash gets a backtrace from cuda-gdb (the machine has no gdb); `x/4a $sp` names the caller
# of a call through a null pointer, where the backtrace stops at address 0.
SPLRUN=build-gpu/host/splrun
report "== splrun on the GPU"
"$SPLRUN" doctor 2>&1 | grep -iE "cuda|libtorch" | tee -a "$REPORT"
smoke() { # NAME FILE: runs FILE, backtrace on a crash
  timeout 120 "$SPLRUN" "$2" > "$LOG/$1.log" 2>&1; local rc=$?
  tail -12 "$LOG/$1.log" | tee -a "$REPORT"; report "$1: exit $rc"
  if [ $rc -ge 128 ] && command -v cuda-gdb >/dev/null; then
    timeout 180 cuda-gdb -batch -ex run -ex bt -ex 'x/4a $sp' -ex "info sharedlibrary" --args "$SPLRUN" "$2" \
      > "$LOG/$1-backtrace.log" 2>&1
    grep -E "^#|signal|SIG" "$LOG/$1-backtrace.log" | head -40 | tee -a "$REPORT"
    LD_PRELOAD="$TORCH/lib/libtorch_cuda.so" timeout 120 "$SPLRUN" "$2" > "$LOG/$1-preloaded.log" 2>&1
    report "$1 with libtorch_cuda preloaded: exit $?"; tail -5 "$LOG/$1-preloaded.log" | tee -a "$REPORT"
  fi
  [ $rc = 0 ] || status=1
}
smoke cuda-smoke tests/gpu/cuda_smoke.spl

# The GPU specs (tests/cuda): CUDA tensors and printing, nn and optim parity, fused and
# capturable optimizers, cuDNN RNNs, autocast and GradScaler training, streams, events, memory
# statistics, CUDA graphs, NCCL with one rank; fixtures made now by Python on this GPU, the
# specs run by this build's splrun with its own lib.torch (tests/fresh_fixtures.py).
report "== the GPU specs (tests/cuda, against Python on this GPU)"
start=$(now)
SPL_TEST_DEVICE=cuda timeout 300 python3 tests/fresh_fixtures.py python3 "$SPLRUN" tests/cuda /tmp/spl-cuda-specs \
  > "$LOG/cuda-specs.log" 2>&1; specs=$?
grep -E "✗|passed, .* failed|failed:|Error|error:" "$LOG/cuda-specs.log" | head -40 | tee -a "$REPORT"
report "cuda specs: exit $specs in $(since "$start") s"
[ $specs = 0 ] || status=1

# The plugin suite on this machine's LibTorch. (The Simple spec suites read the pin's
# lib.torch from the source tree, so they run only where the pin is installed.)
TESTS=${SPL_GPU_TESTS:-plugin}
start=$(now)
# shellcheck disable=SC2086 # test names, one word each
"${MESON[@]}" test -C build-gpu --no-rebuild --print-errorlogs --num-processes "$(nproc)" $TESTS \
  > "$LOG/suites.log" 2>&1 && suites=0 || suites=$?
grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT)|^Ok:|^Fail:|^Skipped:|^Timeout:" "$LOG/suites.log" | tee -a "$REPORT"
report "tests ($TESTS): exit $suites in $(since "$start") s"

report "== benchmarks (lib.torch through splrun vs Python eager, same GPU, same LibTorch build)"
smoke gpu-step-simple bench/gpu/gpu_step.spl
timeout 240 python3 bench/gpu/gpu_step.py 2>&1 | tee -a "$REPORT"
report "== a CUDA-graphed training step (MLP 784-256-10, capturable Adam) vs Python eager and graphed"
smoke gpu-graph-simple bench/gpu/graph_step.spl
timeout 120 python3 bench/gpu/graph_step.py 2>&1 | tee -a "$REPORT"
report "== call overhead (ns per call), CPU then GPU"
plugin=build-gpu/runtime_plugin/libspl_torch.so
for device in cpu cuda:0; do
  SPL_TORCH_PLUGIN=$plugin SPL_BENCH_DEVICE=$device timeout 120 build-gpu/bench/bench_call_overhead \
    --benchmark_min_time=0.2 2>/dev/null | tail -4 | tee -a "$REPORT"
done
exit $status
