// torchgen's `autogen:` expansion (native_function_generation.py): operators
// that are in the dispatcher, and so in ATen/ops/*_ops.h, without a line of
// their own in native_functions.yaml. Variants of one operator are grouped by
// their "signature"; a group that lacks an out= variant (and asks for it
// under `autogen:`) or a functional one gets it generated.
#pragma once

#include <string>
#include <vector>

#include "model/schema.h"

namespace codegen {

// A native_functions.yaml entry, with the few non-schema facts that decide
// whether torchgen generates variants for it.
struct NativeEntry {
    Operator op;
    std::vector<std::string> autogen; // names listed under `autogen:`
    bool manual_cpp_binding = false;
    bool composite_implicit = false; // has a CompositeImplicitAutograd kernel, listed or implied
};

// The operators torchgen would add, in no particular order. Throws
// std::runtime_error naming the origin line when the YAML contradicts
// torchgen's rules (two variants of one kind, an `autogen:` list that does
// not match what gets generated).
std::vector<Operator> expand_autogen(const std::vector<NativeEntry>& entries);

// torchgen's FunctionSchema.signature(): what the variants of one operator
// have in common (no overload, no in-place or `_functional` suffix, no
// alias annotations, no out= or TensorOptions arguments, written inputs
// turned into returns). Exposed for tests.
FunctionSchema signature(const FunctionSchema& s, bool keep_return_names);

} // namespace codegen
