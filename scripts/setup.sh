#!/usr/bin/env bash
# One-time (and idempotent, fast when done) setup: Debian packages, the
# pinned torch in .venv, and configured + built `build/` and `build-1.13/`
# (scripts/test.sh builds `build-asan/` and the fuzz targets).
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-torch: Debian's Python torch (1.13), the other LibTorch that lib.python must refuse to
# share tensors with (tests/python/check_other_torch.py). valgrind: the per-op instruction guard.
APT_PACKAGES=(meson ninja-build pkg-config g++ python3 python3-venv libyaml-cpp-dev nlohmann-json3-dev
              doctest-dev libbenchmark-dev libclang-dev libtorch-dev clang-format clang libclang-rt-14-dev
              libgloo-dev libpng-dev libjpeg62-turbo-dev python3-torch valgrind)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PIN=$(grep -E '^torch==' torch-requirements.txt | cut -d= -f3)
# torchvision, the reference for lib.torch's transforms and MNIST: PyPI's newest is built
# against the torch before ours (it asks for torch>=2.14), so it goes in with --no-deps: pip
# never re-resolves the pinned torch for it. Its Python transforms and datasets, and its
# compiled ops (built on torch's stable ABI), run on our torch.
TORCHVISION=0.29.2
# One Python start (torch's import is most of it) says what is missing: 1, torch off its pin or
# a package of torch-requirements.txt; 2, torchvision off its pin; anything else, no venv.
venv_state=0
.venv/bin/python -c "
import sys
try:
    import torch, sklearn, safetensors, tensorboard, tqdm, PIL, onnx, onnxruntime, transformers
except ImportError:
    sys.exit(1)
if torch.__version__.split('+')[0] != '$PIN':
    sys.exit(1)
try:
    import torchvision.transforms, torchvision.datasets
except ImportError:
    sys.exit(2)
sys.exit(2 if torchvision.__version__.split('+')[0] != '$TORCHVISION' else 0)" 2>/dev/null || venv_state=$?
if [ "$venv_state" != 0 ] && [ "$venv_state" != 2 ]; then
  echo "setup: installing torch $PIN and torch-requirements.txt into .venv (large download on first run)"
  PY=$(command -v python3)
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r torch-requirements.txt
fi
if [ "$venv_state" != 0 ]; then
  echo "setup: installing torchvision $TORCHVISION into .venv (--no-deps: torch stays at $PIN)"
  .venv/bin/pip install -q --disable-pip-version-check --no-deps "torchvision==$TORCHVISION"
fi

# build/: against the pinned wheel. build-1.13/: against Debian's libtorch-dev
# (headers only: the generator scans them), to prove the same sources build
# and pass against a LibTorch years older.
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build -j"$(nproc)" >/dev/null
if [ "${SPL_TORCH_SKIP_DEBIAN:-0}" != 1 ]; then
  # At -O1: it proves the sources build and pass against 1.13, and times nothing; GCC's -O3 on
  # the plugin's core and the tests was most of its build time.
  [ -f build-1.13/build.ninja ] || meson setup build-1.13 -Dlibtorch=/usr -Doptimization=1 >/dev/null
  ninja -C build-1.13 -j"$(nproc)" runtime_plugin/libspl_torch.so tests/plugin/test_plugin \
    tests/plugin/test_cuda_linkage tests/headers/test_headers >/dev/null
fi
# The sanitized build-asan/ is built by scripts/test.sh (through
# scripts/sanitize.sh), not here: it is the longest build, and running an
# example does not need it.
echo "setup: done (LibTorch $PIN in build/, Debian's LibTorch in build-1.13/)"
