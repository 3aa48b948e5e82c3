#!/usr/bin/env python3
"""Locate a LibTorch install for meson.

Accepts a pip `torch` folder, an unzipped LibTorch, or a system prefix such as
/usr (Debian's libtorch-dev). Prints `key=value` lines that libtorch/meson.build
reads. Uses only the standard library: it must work before any venv exists.
"""
import glob
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def venv_torch():
    hits = sorted(glob.glob(os.path.join(REPO, ".venv", "lib", "python3*", "site-packages", "torch")))
    if not hits:
        sys.exit("find_libtorch: no LibTorch given and none in .venv; run scripts/setup.sh "
                 "or pass -Dlibtorch=PATH")
    return hits[-1]


def first_existing(paths):
    return next((p for p in paths if os.path.exists(p)), "")


def cuda_include_dirs(root):
    """The CUDA headers LibTorch's CUDA headers include (cuda_runtime_api.h, cublas_v2.h, nccl.h):
    the wheel's NVIDIA packages beside torch/ (nvidia/cu13/include, or one folder per library for
    CUDA 12), else a CUDA Toolkit. Empty when cuda_runtime_api.h is nowhere."""
    dirs = sorted(glob.glob(os.path.join(os.path.dirname(root), "nvidia", "*", "include")))
    # A wheel may ship cuda_runtime_api.h without the crt/ headers it includes (torch 2.11's).
    if not any(os.path.exists(os.path.join(d, "crt", "host_defines.h")) for d in dirs):
        dirs += [d for d in ("/usr/local/cuda/include",) if os.path.isdir(d)]
    if not any(os.path.exists(os.path.join(d, "cuda_runtime_api.h")) for d in dirs):
        return []
    if any("," in d or "=" in d for d in dirs):
        return []
    return dirs


def main():
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else venv_torch()
    inc = os.path.join(root, "include")
    if not os.path.isdir(os.path.join(inc, "ATen")):
        sys.exit(f"find_libtorch: {root} has no include/ATen: not a LibTorch root")
    api_inc = os.path.join(inc, "torch", "csrc", "api", "include")
    libdir = first_existing([os.path.join(root, "lib"), os.path.join(root, "lib", "x86_64-linux-gnu")])
    if not os.path.exists(os.path.join(libdir, "libtorch_cpu.so")):
        libdir = first_existing([d for d in (os.path.join(root, "lib", "x86_64-linux-gnu"), os.path.join(root, "lib"))
                                 if os.path.exists(os.path.join(d, "libtorch_cpu.so"))])
    if not libdir:
        sys.exit(f"find_libtorch: no libtorch_cpu.so under {root}/lib")

    version = ""
    for header in ("torch/headeronly/version.h", "torch/csrc/api/include/torch/version.h"):
        path = os.path.join(inc, header)
        if os.path.exists(path):
            text = open(path).read()
            parts = [re.search(rf"#define TORCH_VERSION_{k} (\d+)", text) for k in ("MAJOR", "MINOR", "PATCH")]
            if all(parts):
                version = ".".join(p.group(1) for p in parts)
                break
    if not version:
        sys.exit(f"find_libtorch: cannot read TORCH_VERSION_* under {inc}")

    # The wheel ships native_functions.yaml beside torch/ in torchgen/packaged.
    yaml_dir = os.path.join(os.path.dirname(root), "torchgen", "packaged", "ATen", "native")
    native = os.path.join(yaml_dir, "native_functions.yaml")
    tags = os.path.join(yaml_dir, "tags.yaml")
    has_cuda = os.path.exists(os.path.join(libdir, "libtorch_cuda.so"))
    cuda_include = cuda_include_dirs(root) if has_cuda else []

    if "=" in root:
        sys.exit(f"find_libtorch: {root}: paths containing '=' are not supported")
    print(f"root={root}")
    print(f"include={inc}")
    print(f"api_include={api_inc if os.path.isdir(api_inc) else ''}")
    print(f"libdir={libdir}")
    print(f"version={version}")
    print(f"native_functions={native if os.path.exists(native) else ''}")
    print(f"tags={tags if os.path.exists(tags) else ''}")
    print(f"has_cuda={'true' if has_cuda else 'false'}")
    print(f"cuda_include={','.join(cuda_include)}")


if __name__ == "__main__":
    main()
