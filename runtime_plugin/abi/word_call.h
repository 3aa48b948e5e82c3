// The word convention's adapters (spl_plugin.h, "The word convention"): every
// registered function, generated or hand-written, is also exported as
// `spl_w_<name>`, taking and returning only int64_t words. An adapter reads its
// words by the function's registered Simple parameter types, makes the boxed
// call and turns the boxed result back into a word, so the conversions live here
// once rather than in 3,000 generated functions.
#pragma once

#include "simple_types.h"
#include "spl_plugin.h"

#include <cstdint>

namespace spl {

// How a parameter of a Simple type travels as words (simple_types.h's table).
using WordKind = simple_types::Word;
// The kind of a Simple type, e.g. "f64?" -> Tagged; throws SplError for a type
// without one.
WordKind word_kind(const char* simple_type);
int word_count(WordKind kind);
// The words a call of `fn` takes: the sum over its parameters. Above
// SPL_MAX_WORDS, the caller passes one word instead: a WordList of those words.
int words_needed(const SplFunction& fn);

// The body of every `spl_w_` adapter: the call of `fn` with arguments read from
// `words` (unused ones are ignored). Returns the result word; on failure 0, with
// the error pending (spl_w_error_pending, spl_w_last_error).
int64_t word_call(const SplFunction& fn, const int64_t (&words)[SPL_MAX_WORDS]) noexcept;

} // namespace spl

// What each adapter is: `fn`'s word form, exported as SPL_WORD_PREFIX + its name.
#define SPL_WORD_PARAMS int64_t w0, int64_t w1, int64_t w2, int64_t w3, int64_t w4, int64_t w5, int64_t w6, int64_t w7
#define SPL_WORD_CALL(fn_entry) spl::word_call((fn_entry), {w0, w1, w2, w3, w4, w5, w6, w7})
