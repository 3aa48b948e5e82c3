// Port of torch/_tensor_str.py's `_str_intern`: the whole text `str(t)`
// gives in Python, "tensor(" + values + the suffixes (device, size, dtype,
// layout, grad_fn or requires_grad), wrapped as `_add_suffixes` wraps them.
#pragma once

#include "extras/format/print_options.h"

#include <ATen/core/Tensor.h>

#include <string>

namespace spl::format {

std::string tensor_repr(const at::Tensor& tensor, const PrintOptions& options = kPrintOptions);

} // namespace spl::format
