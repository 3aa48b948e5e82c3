// Layer 2 (API): how each schema type crosses the boundary.
//
// ONE table (type_table.cpp) says, for every schema type, its typed C ABI
// parameter type, its Simple type, the BoxedArgs accessor that reads it from
// a boxed value and the runtime function that turns it into the ATen value;
// and for every return type, the same the other way. Emitters read this
// table and never decide a mapping themselves. generated/type-table.md renders it.
#pragma once

#include "model/schema.h"

#include <optional>
#include <string>
#include <vector>

namespace codegen::api {

struct ArgBinding {
    std::string key;          // the table key, e.g. "Tensor?", "int[]", "bool[N]"
    std::string c_type;       // typed C parameter: "int64_t", "SplValue", "SplI64Array", ...
    std::string simple_type;  // Simple extern type: "i64", "any", "[i64]", "text?"
    std::string unbox;        // BoxedArgs accessor: "handle", "i64", "value", "i64_list", ...
    std::string to_aten;      // conversion, with {v} = C parameter, {n} = "name" literal, {N} = list size
    std::string api_type;     // type in lib.torch's generated API (Tensor objects instead of handles)
    std::string to_ffi;       // lib.torch value {v} -> the extern's argument
};

struct ReturnBinding {
    std::string key;
    std::string c_type;       // typed C return for a single return
    std::string simple_type;
    std::string to_abi;       // ATen value {r} -> typed value
    std::string to_boxed;     // ATen value {r} -> SplValue (for tuple elements)
    std::string api_type;     // type in lib.torch's generated API
    std::string from_ffi;     // the extern's result {r} -> lib.torch value
};

// The binding of an argument type, or std::nullopt with `why` set when the
// type has no binding (the policy file must then exclude the operator).
std::optional<ArgBinding> bind_argument(const Type& type, std::string* why);
std::optional<ReturnBinding> bind_return(const Type& type, std::string* why);

// A schema default as (a) a typed-ABI C++ expression used when a boxed call
// omits the argument, and (b) a Simple literal for the extern declaration.
struct DefaultBinding {
    std::string cpp;      // may refer to a static array named by `array_name`
    std::string cpp_array_decl; // non-empty when the default needs static storage
    std::string simple;
};
DefaultBinding bind_default(const Argument& arg, const std::string& array_name);

// All rows, in table order, for documentation and tests.
const std::vector<ArgBinding>& argument_table();
const std::vector<ReturnBinding>& return_table();

} // namespace codegen::api
