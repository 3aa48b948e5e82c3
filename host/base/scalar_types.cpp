// scalar_types.cpp — the built-in number and text type names and their facts.
#include "base/scalar_types.h"

namespace spl {

namespace {

// `int` and `float` were accepted only by casts before the table was shared;
// they are aliases of i64 and f64 everywhere now.
constexpr IntTypeName kInts[] = {
    {"i64", 64, true},   {"i32", 32, true},    {"i16", 16, true},  {"i8", 8, true},
    {"u64", 64, false},  {"u32", 32, false},   {"u16", 16, false}, {"u8", 8, false},
    {"isize", 64, true}, {"usize", 64, false}, {"int", 64, true},
};
constexpr FloatTypeName kFloats[] = {{"f64", 64}, {"f32", 32}, {"float", 64}};

} // namespace

const IntTypeName* find_int_type(std::string_view name) {
    for (const IntTypeName& t : kInts)
        if (t.name == name) return &t;
    return nullptr;
}

const FloatTypeName* find_float_type(std::string_view name) {
    for (const FloatTypeName& t : kFloats)
        if (t.name == name) return &t;
    return nullptr;
}

bool is_text_type_name(std::string_view name) { return name == "text" || name == "str" || name == "String"; }

int64_t wrap_to(const IntTypeName& t, int64_t i) {
    switch (t.bits) {
    case 32: return t.is_signed ? static_cast<int32_t>(i) : static_cast<int64_t>(static_cast<uint32_t>(i));
    case 16: return t.is_signed ? static_cast<int16_t>(i) : static_cast<int64_t>(static_cast<uint16_t>(i));
    case 8: return t.is_signed ? static_cast<int8_t>(i) : static_cast<int64_t>(static_cast<uint8_t>(i));
    default: return i; // 64 bits: every i64 is already in range (u64 keeps the i64's bits)
    }
}

} // namespace spl
