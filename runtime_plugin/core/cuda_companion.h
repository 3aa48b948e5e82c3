// The plugin's CUDA companion, libspl_torch_cuda.so (cuda/spl_torch_cuda.h): loaded from beside
// the plugin the first time a CUDA-only feature is used (torch.cuda's device properties, CUDA
// graphs, NCCL), once LibTorch's CUDA part is loaded. Also what every torch.cuda entry point
// checks first: that CUDA can run here, with PyTorch's error where it cannot.
#pragma once

#include "cuda/spl_torch_cuda.h"

namespace spl {

// Throws PyTorch's error when CUDA cannot run in this process (no CUDA part loaded, no driver,
// no device), as torch.cuda's lazy initialisation does.
void require_cuda();

// The companion's table; throws (after require_cuda) when the companion cannot be loaded.
const SplCudaApi& cuda_companion();

// Raises a companion function's error text through the plugin's error translator.
void check_companion(const char* error);

} // namespace spl
