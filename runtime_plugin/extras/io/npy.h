// The NumPy .npy format, shared by npy.cpp (files) and npz.cpp (zip members).
#pragma once

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <string>

namespace spl::io {

// The array in the .npy bytes `data` as a new CPU tensor; `path` (and `member`,
// inside an .npz) name it in messages.
at::Tensor parse_npy(const char* data, size_t size, const std::string& path, const std::string& member = "");

} // namespace spl::io
