// Front-end: native_functions.yaml + tags.yaml -> OperatorSet, including the
// operators torchgen generates from `autogen:` entries, so that the set
// equals the dispatcher's (the schema_str of ATen/ops/*_ops.h).
#pragma once

#include <string>

#include "model/schema.h"

namespace codegen {

// Throws SchemaError for a malformed `func:` and std::runtime_error for
// anything else (unreadable file, unknown tag or variant, inconsistent
// `autogen:`), always naming "native_functions.yaml:<line>".
OperatorSet load_native_functions(const std::string& native_functions_yaml, const std::string& tags_yaml,
                                  const std::string& libtorch_version);

} // namespace codegen
