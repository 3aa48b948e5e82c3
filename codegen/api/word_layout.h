// Layer 2 (API): how each Simple type travels in the word convention
// (runtime_plugin/spl_plugin.h, "The word convention"; its C++ side is
// runtime_plugin/word/word_call.cpp), as the one-letter codes that lib.torch's
// word flavour hands to word_call (spl_stubs/word/word_call.spl).
#pragma once

#include <string>

namespace codegen::api {

// Parameters: I i64, F f64 (bits), B bool, T text, t text? (0 = nil), V a tag and a
// payload (any and optionals), L a list handle (lists, tuples; 0 = nil).
char word_param_code(const std::string& simple_type);
// The words a parameter of that code takes (V: 2), and the most a call passes directly
// (runtime_plugin/spl_plugin.h: SPL_MAX_WORDS; more go in an argument block).
int word_count(char code);
constexpr int kMaxWords = 8;
// Results: '-' none, I, F, B, T as above, V anything else (read by its tag).
char word_result_code(const std::string& simple_type);
// The number of elements of a tuple type "(a, b)", 0 for any other type.
int tuple_arity(const std::string& simple_type);

} // namespace codegen::api
