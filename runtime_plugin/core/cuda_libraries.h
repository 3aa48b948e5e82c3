// LibTorch's CUDA part (libtorch_cuda.so and the NVIDIA libraries it needs),
// loaded by the plugin itself when it can be used, instead of by the linker.
//
// Loading them costs start-up time and memory on every start, and without an
// NVIDIA driver they can never run anything. So the plugin links libtorch_cpu
// only, and when it is loaded (a static initialiser, before anything can ask
// LibTorch for its CUDA hooks, whose first answer LibTorch keeps forever) it
// loads libtorch_cuda.so from next to libtorch_cpu if a driver is present.
// SPL_TORCH_CUDA=1 loads it anyway, SPL_TORCH_CUDA=0 never.
#pragma once

#include <string>

namespace spl {

// Whether libtorch_cuda.so is loaded in this process, by the plugin or by
// anything else (a host that links all of LibTorch).
bool cuda_libraries_loaded() noexcept;

// Why the plugin did not load them, for `splrun doctor` ("" when it did, or
// they were there).
const std::string& cuda_libraries_not_loaded_because() noexcept;

// What a CUDA operation's error becomes while they are not loaded: LibTorch's
// own text there says that no kernel exists for the 'CUDA' backend, which
// points the wrong way. Without a driver, PyTorch's text for that case; ""
// where LibTorch's own error is right (a LibTorch without a CUDA part).
const std::string& cuda_libraries_missing_error() noexcept;

} // namespace spl
