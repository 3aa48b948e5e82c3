// Port of the sparse branches of torch/_tensor_str.py's `_str_intern`: a
// sparse tensor shows its index and value tensors, not its dense values.
#pragma once

#include "extras/format/print_options.h"

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace spl::format {

bool is_sparse_layout(const at::Tensor& self);

// The body ("indices=tensor(...),\n       values=tensor(...)" for COO; the
// compressed and plain indices then values for CSR/CSC/BSR/BSC), adding the
// size, nnz and dtype suffixes to `suffixes` as PyTorch orders them.
std::string sparse_body(const at::Tensor& self, int64_t indent, bool has_default_dtype,
                        std::vector<std::string>& suffixes, const PrintOptions& options = kPrintOptions);

} // namespace spl::format
