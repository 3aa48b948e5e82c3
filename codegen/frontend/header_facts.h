// What the header front-end reads from an installed LibTorch's headers,
// before any interpretation: the at::_ops operator structs, and which of
// them the C++ API (free functions of namespace at, members of at::Tensor)
// calls. header_frontend.cpp turns these facts into the IR.
#pragma once

#include "frontend/clang_unit.h"

#include <set>
#include <string>
#include <vector>

namespace codegen {

// One `struct at::_ops::<struct_name>` with its static constexpr strings.
struct OpsStruct {
    std::string struct_name;   // "add_Tensor"
    std::string name;          // "aten::add"
    std::string overload_name; // "Tensor", "" when none
    std::string schema_str;    // unescaped
    std::string file;          // the _ops.h file, as clang names it
    unsigned line = 0;         // of `schema_str`
};

struct HeaderFacts {
    std::vector<OpsStruct> ops; // in the order clang met them
    // _ops structs whose `call`/`redispatch` appears in the body of ...
    std::set<std::string> called_by_functions; // ... a free function of namespace at
    std::set<std::string> called_by_methods;   // ... a member function of at::Tensor / at::TensorBase
};

// Visits only namespace at (and at::_ops): libstdc++ and c10 are parsed but
// never walked. Throws std::runtime_error when an _ops struct lacks one of
// its strings.
HeaderFacts read_header_facts(const clang::Unit& unit);

} // namespace codegen
