// Lists for the word convention (spl_plugin.h, "The word convention"): a caller
// that can pass only 64-bit words builds a list argument item by item in a
// WordList held in the handle table, and reads list results back the same way.
#pragma once

#include "spl_plugin.h"
#include "core/handle_table.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spl {

class WordList;

// The word of a bool, i64 or f64 value (0/1, the value, the bit pattern), and back: the
// convention's scalar layout, in one place for arguments, list items and results.
int64_t scalar_word(const SplValue& value);
SplValue scalar_value(int32_t tag, int64_t word);

// One item: a tag (an SplTag) and its word; text and nested lists are owned here,
// so a list outlives the caller's buffers and the result arena.
struct WordItem {
    int32_t tag = SPL_NIL;
    int64_t word = 0; // SPL_BOOL 0/1, SPL_I64 the value, SPL_F64 the bit pattern
    std::string text;
    std::shared_ptr<WordList> list;
};

class WordList final : public HandleObject {
public:
    static constexpr const char* kKind = "a word list";
    const char* kind() const noexcept override { return kKind; }

    std::vector<WordItem> items;
};

// The list behind a live handle; throws SplError naming `what` otherwise.
std::shared_ptr<WordList> word_list(int64_t handle, const char* what);

// Checks a tag word and its payload word: a tag that is not a value tag, a bool
// word other than 0/1 or a text pointer of 0 is an error named by `what()`, which
// is only called then (a list handle is checked when it is looked up).
template <class What>
void check_tagged(int64_t tag, int64_t word, What&& what) {
    switch (tag) {
    case SPL_NIL:
    case SPL_I64:
    case SPL_F64:
    case SPL_ARRAY: return;
    case SPL_BOOL:
        if (word == 0 || word == 1) return;
        throw SplError(what() + ": a bool word must be 0 or 1, got " + std::to_string(word));
    case SPL_TEXT:
        if (word != 0) return;
        throw SplError(what() + ": a text pointer of 0 (nil is tag 0, not a null text)");
    default:
        throw SplError(what() + ": tag word " + std::to_string(tag) +
                       " is not a value tag (0 nil, 1 bool, 2 i64, 3 f64, 4 text, 5 list)");
    }
}

// One item from a tag word and a payload word, checked (check_tagged; a list handle
// must be a live list), owning its text and list.
WordItem word_item(int64_t tag, int64_t word, const std::string& what);

// A boxed value as a list item (deep copy: text and arrays are owned by the item).
WordItem item_of(const SplValue& value);

} // namespace spl
