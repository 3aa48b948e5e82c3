// simple_types.h — the Simple types a registered signature may name, and how a value of each
// crosses the plugin's ABI: the typed C type it is carried in and its word layout
// (spl_plugin.h: "typed", "The word convention"). The one table of these facts outside the
// generator's schema-type table (codegen/api/type_table.cpp), read by the generator's word
// layout, SPL_EXTRA (abi/extra_registration.h), the word adapters (word/word_call.cpp) and
// hosts (splrun's typed calls), none of which compares type texts of its own.
// Plain C++17, no LibTorch: hosts include it as they include spl_plugin.h.
#pragma once

#include <string_view>

namespace spl::simple_types {

// The C type of a typed symbol's parameter or result.
enum class Carrier : unsigned char {
    I64,       // int64_t
    F64,       // double
    Bool,      // bool
    Text,      // const char* (NUL-terminated UTF-8)
    Value,     // SplValue: any, and the optionals of scalars
    I64Array,  // SplI64Array
    F64Array,  // SplF64Array
    BoolArray, // SplBoolArray
    TextArray, // SplTextArray
    List,      // SplValue holding an array: other lists and tuples
};

// How a parameter travels in the word convention.
enum class Word : unsigned char {
    I64,     // the value
    F64,     // its IEEE-754 bit pattern
    Bool,    // 0 or 1
    Text,    // a NUL-terminated UTF-8 char*; 0 is refused (nil is not a text)
    OptText, // the same; 0 is nil (None)
    Tagged,  // two words: a tag (SplTag) and a payload, for `any` and optionals (`i64?`)
    List,    // a WordList handle; 0 is nil
};

struct Row {
    std::string_view text; // the canonical type text ("" for the rows matched by shape)
    Carrier carrier;
    Word word;
    char word_code;   // the letter lib.torch's word flavour hands to word_call
    int words;        // how many words a parameter takes
    bool word_result; // a result of this type comes back as its own word (else tagged)
};

inline constexpr Row kI64{"i64", Carrier::I64, Word::I64, 'I', 1, true};
inline constexpr Row kF64{"f64", Carrier::F64, Word::F64, 'F', 1, true};
inline constexpr Row kBool{"bool", Carrier::Bool, Word::Bool, 'B', 1, true};
inline constexpr Row kText{"text", Carrier::Text, Word::Text, 'T', 1, true};
inline constexpr Row kOptText{"text?", Carrier::Text, Word::OptText, 't', 1, false};
inline constexpr Row kAny{"any", Carrier::Value, Word::Tagged, 'V', 2, false};
inline constexpr Row kI64List{"[i64]", Carrier::I64Array, Word::List, 'L', 1, false};
inline constexpr Row kF64List{"[f64]", Carrier::F64Array, Word::List, 'L', 1, false};
inline constexpr Row kBoolList{"[bool]", Carrier::BoolArray, Word::List, 'L', 1, false};
inline constexpr Row kTextList{"[text]", Carrier::TextArray, Word::List, 'L', 1, false};
// Matched by shape: any other list or tuple (`[[i64]]`, `(i64, f64)`, `[i64]?`), and any other
// optional (`i64?`, `f64?`, `any?`).
inline constexpr Row kOtherList{"", Carrier::List, Word::List, 'L', 1, false};
inline constexpr Row kOptional{"", Carrier::Value, Word::Tagged, 'V', 2, false};

inline constexpr const Row* kNamed[] = {&kI64, &kF64,     &kBool,    &kText,     &kOptText,
                                        &kAny, &kI64List, &kF64List, &kBoolList, &kTextList};

// The row of a canonical type text, or nullptr for a type no signature may name.
constexpr const Row* find(std::string_view text) {
    for (const Row* row : kNamed)
        if (row->text == text) return row;
    if (!text.empty() && (text.front() == '[' || text.front() == '(')) return &kOtherList;
    if (!text.empty() && text.back() == '?') return &kOptional;
    return nullptr;
}

} // namespace spl::simple_types
