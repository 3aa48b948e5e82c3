// Port of torch/_tensor_str.py's `get_summarized_data`: the elements a
// summarized print shows (edgeitems at each end of every dimension), gathered
// into one tensor so the formatter looks only at what is printed.
#pragma once

#include "extras/format/print_options.h"

#include <ATen/core/Tensor.h>

namespace spl::format {

at::Tensor summarized_data(const at::Tensor& self, const PrintOptions& options = kPrintOptions);

} // namespace spl::format
