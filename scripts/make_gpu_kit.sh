#!/usr/bin/env bash
# Fetches the Debian -dev packages the build needs into .gpukit/, for a GPU
# machine that has PyTorch, nvcc, meson and ninja but no package registry.
# .gpukit/ is git-ignored; scripts/gpu_check.sh unpacks it there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gpukit
cd .gpukit
apt-get download libyaml-cpp-dev libyaml-cpp0.7 nlohmann-json3-dev doctest-dev libbenchmark-dev \
  libbenchmark1debian pkgconf pkgconf-bin libpkgconf3 2>/dev/null
ls
