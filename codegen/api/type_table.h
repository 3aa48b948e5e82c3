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

// The C type a value crosses the typed ABI in (runtime_plugin/spl_plugin.h).
// Emitters print it with c_type(); decisions switch on it, never on its text.
enum class Carrier : uint8_t { Void, I64, F64, Bool, Text, Value, I64Array, F64Array, BoolArray, TextArray, Array };
const char* c_type(Carrier carrier);

// What a schema default of a type (or of a list's elements) is written as.
enum class Literal : uint8_t {
    Tensor, // only None: the null handle
    Int,    // `1`, or a Reduction name (`Mean`)
    Float,  // `1e-5`, `inf`
    Bool,   // `True`
    Scalar, // `1` or `1.0` or `True`: the literal decides
    Text,   // a quoted string, or a layout/format/device name
    Dtype,  // a dtype name as the schema writes it (`long`)
    Other,  // Generator: only None
};

struct ArgBinding {
    std::string key;         // the table key, e.g. "Tensor?", "int[]", "bool[N]"
    Carrier carrier;         // typed C parameter
    std::string simple_type; // Simple extern type: "i64", "any", "[i64]", "text?"
    std::string unbox;       // BoxedArgs accessor: "handle", "i64", "value", "i64_list", ...
    std::string to_aten;     // conversion, with {v} = C parameter, {n} = "name" literal, {N} = list size
    std::string api_type;    // type in lib.torch's generated API (Tensor objects instead of handles)
    std::string to_ffi;      // lib.torch value {v} -> the extern's argument
    Literal literal;         // how its defaults are written
    bool carries_tensors;    // Tensor, Tensor?, Tensor[], Tensor?[]: orders lib.torch's overloads
    std::string sized_unbox; // BoxedArgs accessor for a fixed-size list (`int[2]`), which a bare int fills

    std::string c_type() const { return api::c_type(carrier); }
};

struct ReturnBinding {
    std::string key;
    Carrier carrier; // typed C return for a single return
    std::string simple_type;
    std::string to_abi;   // ATen value {r} -> typed value
    std::string to_boxed; // ATen value {r} -> SplValue (for tuple elements)
    std::string api_type; // type in lib.torch's generated API
    std::string from_ffi; // the extern's result {r} -> lib.torch value
    bool is_tensor;       // one tensor: several of them come back as `[i64]` rather than a tuple

    std::string c_type() const { return api::c_type(carrier); }
};

// The binding of an argument type, or std::nullopt with `why` set when the
// type has no binding (the policy file must then exclude the operator).
std::optional<ArgBinding> bind_argument(const Type& type, std::string* why);
std::optional<ReturnBinding> bind_return(const Type& type, std::string* why);
// A return that aliases a written argument (`Tensor(a!)`, `Tensor(a!)[]`:
// in-place and out= operators) is that argument's handle(s); {r} stands for
// the argument's C name.
ReturnBinding bind_aliased_return(const Type& type);

// A schema default as (a) a typed-ABI C++ expression used when a boxed call
// omits the argument, and (b) a Simple literal for the extern declaration.
struct DefaultBinding {
    std::string cpp;            // may refer to a static array named by `array_name`
    std::string cpp_array_decl; // non-empty when the default needs static storage
    std::string simple;
    std::string api; // the default in lib.torch's API (`nil` where the extern takes handle 0)
};
DefaultBinding bind_default(const Argument& arg, const std::string& array_name);

// The argument types coverage.txt counts operators by.
enum class CountedType : uint8_t { Other, Generator, Dimname, MemoryFormat };
CountedType counted_type(const Type& type);

// All rows, in table order, for documentation and tests.
const std::vector<ArgBinding>& argument_table();
const std::vector<ReturnBinding>& return_table();

} // namespace codegen::api
