// Front-end: an installed LibTorch's headers -> OperatorSet, the same IR as
// the YAML front-end, for installs that ship no native_functions.yaml
// (Debian's libtorch-dev). Reads, with libclang, one translation unit that
// includes every ATen/ops/*_ops.h, ATen/core/TensorBody.h and ATen/Functions.h:
//   - each at::_ops struct gives an operator (its schema_str, parsed);
//   - an operator is a "method" when a member of at::Tensor calls its
//     struct, and a "function" when a free function of namespace at does.
// Headers do not say which tags an operator has nor whether torchgen
// generated it from `autogen:`; those stay empty/false
// (schema/frontend_differences.json lists what differs from the YAML).
#pragma once

#include <string>

#include "model/schema.h"

namespace codegen {

// `include_dir` holds ATen/ (a pip torch's include/, or /usr/include).
// `libtorch_version` ("2.15.0") picks the C++ standard the headers need
// (C++20 from 2.10 on); empty: read it from the headers. Throws
// std::runtime_error when the headers do not parse or an operator struct is
// inconsistent, and SchemaError for a schema_str that does not parse.
OperatorSet scan_headers(const std::string& include_dir, const std::string& libtorch_version);

// The TORCH_VERSION_{MAJOR,MINOR,PATCH} of the headers ("1.13.1"), or ""
// when no version header is found.
std::string header_libtorch_version(const std::string& include_dir);

} // namespace codegen
