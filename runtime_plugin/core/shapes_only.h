// shapes_only.h — `splrun check`'s runs (SPL_TORCH_SHAPES_ONLY=1 in the environment): every
// tensor is made on LibTorch's meta device, which keeps sizes, strides and dtypes and no data, so
// every operator runs its meta kernel (its shape rule) and nothing else; no file is opened.
// The host sets it for a check's run only; a normal run never sees it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include <c10/core/Device.h>

#include "abi/error_guard.h"

namespace spl {

// Read once, when first asked: the environment of the process is the run's configuration.
inline bool shapes_only() {
    static const bool on = [] {
        const char* v = std::getenv("SPL_TORCH_SHAPES_ONLY");
        return v && std::strcmp(v, "1") == 0;
    }();
    return on;
}

// The device a tensor is made on: the one asked for, or meta in a shapes-only run.
inline c10::Device made_on(c10::Device wanted) { return shapes_only() ? c10::Device(c10::kMeta) : wanted; }

// A file about to be read or written: refused in a shapes-only run, with the words by which the
// host knows the run stopped for want of data rather than for a bug.
inline void refuse_file_in_shapes_only_run(const std::string& path) {
    if (shapes_only())
        throw SplError("a shapes-only run (splrun check) opens no file: " + path + " (what follows needs its data)");
}

// Gives each operator LibTorch has no C++ meta kernel for a fallback that runs it on CPU zeros
// (extras/shapes_only_kernels.cpp); once per process, in a shapes-only run. The operators given one.
int64_t register_shapes_only_kernels();

} // namespace spl
