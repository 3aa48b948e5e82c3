// scalar_types.h — the one table of built-in number and text type names.
//
// Parameter checks (types.cpp), plugin conversions (extern_call.cpp) and
// casts (operators.cpp) all ask here, so that `u16` or `isize` means the same
// thing in all three. Every integer type holds an i64 at run time; the width
// matters only to `x as T`, which wraps like a C cast.
#pragma once

#include <cstdint>
#include <string_view>

namespace spl {

struct IntTypeName {
    std::string_view name;
    int bits; // 64 for i64, u64, isize, usize and `int` (no wrapping)
    bool is_signed;
};

struct FloatTypeName {
    std::string_view name;
    int bits; // 32: a cast rounds to float precision
};

// Null when `name` is no integer / float type.
const IntTypeName* find_int_type(std::string_view name);
const FloatTypeName* find_float_type(std::string_view name);

// `text`, `str`, `String`.
bool is_text_type_name(std::string_view name);

// An i64 wrapped to the type's width and signedness, as a C cast would.
int64_t wrap_to(const IntTypeName& t, int64_t i);

} // namespace spl
