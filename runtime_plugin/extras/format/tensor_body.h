// Port of torch/_tensor_str.py's `_tensor_str`: the bracketed values of a
// strided tensor (what follows "tensor(" up to the suffixes), with
// summarization, line wrapping and complex numbers as PyTorch writes them.
#pragma once

#include "extras/format/print_options.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace spl::format {

// `indent` is the column the opening bracket sits in (7 after "tensor(").
std::string tensor_body(const at::Tensor& self, int64_t indent, const PrintOptions& options = kPrintOptions);

} // namespace spl::format
