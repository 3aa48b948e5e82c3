// word_call: the one body of every word adapter, and the convention's state
// functions (spl_w_result_tag, spl_w_error_pending, spl_w_last_error).
#include "abi/word_call.h"

#include "abi/error_guard.h"
#include "core/results.h"
#include "generated_support.h"
#include "word/word_list.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace spl {
namespace {

// The tag of this thread's last word-call result (spl_w_result_tag).
thread_local int64_t t_result_tag = SPL_NIL;

// Boxed values made from words for one call; the texts and lists they point
// into stay alive with it.
class WordArguments {
public:
    SplValue from_item(const WordItem& item) {
        if (item.tag == SPL_TEXT) return v_text(item.text.c_str());
        if (item.tag == SPL_ARRAY) return from_list(item.list);
        return scalar_value(item.tag, item.word);
    }
    SplValue from_list(const std::shared_ptr<WordList>& list) {
        held_.push_back(list);
        std::vector<SplValue>& items = *arrays_.emplace_back(std::make_unique<std::vector<SplValue>>());
        items.reserve(list->items.size());
        for (const WordItem& item : list->items) items.push_back(from_item(item));
        return v_array(items.data(), static_cast<int64_t>(items.size()));
    }

private:
    // Owned one by one, so adding one never moves the others; empty (no allocation) for a
    // call without lists, the common case.
    std::vector<std::unique_ptr<std::vector<SplValue>>> arrays_;
    std::vector<std::shared_ptr<WordList>> held_;
};

std::string argument_name(const SplFunction& fn, int i) {
    return "argument " + std::to_string(i + 1) + " '" + fn.params[i].name + "'";
}

// The words of a call: the adapter's own, or those of the argument block (copied into `block`).
const int64_t* call_words(const SplFunction& fn, const int64_t (&words)[SPL_MAX_WORDS], std::vector<int64_t>& block) {
    if (fn.nparams * 2 <= SPL_MAX_WORDS) return words; // no parameter takes more than 2 words
    const int needed = words_needed(fn);
    if (needed <= SPL_MAX_WORDS) return words;
    auto list = word_list(words[0], "argument block");
    if (static_cast<int>(list->items.size()) != needed)
        throw SplError("the argument block holds " + std::to_string(list->items.size()) + " words, " + fn.name +
                       " takes " + std::to_string(needed));
    for (const WordItem& item : list->items) {
        if (item.tag != SPL_I64)
            throw SplError("argument block word " + std::to_string(block.size()) + " has tag " +
                           std::to_string(item.tag) + "; the block holds plain words (tag 2)");
        block.push_back(item.word);
    }
    return block.data();
}

int64_t result_word(const SplValue& r) {
    t_result_tag = r.tag;
    switch (r.tag) {
    case SPL_TEXT: return reinterpret_cast<int64_t>(r.as.text.ptr); // the result arena's, NUL-terminated
    case SPL_ARRAY: {
        auto list = std::make_shared<WordList>();
        for (int64_t k = 0; k < r.as.array.len; ++k) list->items.push_back(item_of(r.as.array.items[k]));
        return HandleTable::instance().insert_object(std::move(list));
    }
    default: return scalar_word(r);
    }
}

} // namespace

WordKind word_kind(const char* t) {
    if (const simple_types::Row* row = simple_types::find(t)) return row->word;
    throw SplError(std::string("no word layout for the Simple type '") + t + "'");
}

int word_count(WordKind kind) { return kind == WordKind::Tagged ? 2 : 1; }

int words_needed(const SplFunction& fn) {
    int n = 0;
    for (int i = 0; i < fn.nparams; ++i) n += word_count(word_kind(fn.params[i].simple_type));
    return n;
}

int64_t word_call(const SplFunction& fn, const int64_t (&words)[SPL_MAX_WORDS]) noexcept {
    t_result_tag = SPL_NIL;
    return guarded<int64_t>(fn.name, [&]() -> int64_t {
        std::vector<int64_t> block;
        const int64_t* w = call_words(fn, words, block);
        WordArguments store;
        // On the stack for the usual few parameters: the word path should cost little more than the boxed.
        constexpr int kOnStack = 16;
        SplValue on_stack[kOnStack];
        std::vector<SplValue> on_heap(fn.nparams > kOnStack ? fn.nparams : 0);
        SplValue* args = fn.nparams > kOnStack ? on_heap.data() : on_stack;
        size_t k = 0;
        for (int i = 0; i < fn.nparams; ++i) {
            const int64_t word = w[k++];
            const auto name = [&] { return argument_name(fn, i); }; // only for a message
            switch (word_kind(fn.params[i].simple_type)) {
            case WordKind::I64: args[i] = v_i64(word); break;
            case WordKind::F64: args[i] = scalar_value(SPL_F64, word); break;
            case WordKind::Bool:
                check_tagged(SPL_BOOL, word, name);
                args[i] = v_bool(word != 0);
                break;
            case WordKind::Text:
                if (word == 0) throw SplError(name() + ": a text pointer of 0 (this parameter needs a text)");
                args[i] = v_text(reinterpret_cast<const char*>(word));
                break;
            case WordKind::OptText: args[i] = v_text(reinterpret_cast<const char*>(word)); break; // 0 is nil
            case WordKind::Tagged: {
                const int64_t payload = w[k++];
                check_tagged(word, payload, name);
                if (word == SPL_ARRAY)
                    args[i] = store.from_list(word_list(payload, name().c_str()));
                else if (word == SPL_TEXT)
                    args[i] = v_text(reinterpret_cast<const char*>(payload)); // borrowed for the call
                else
                    args[i] = scalar_value(static_cast<int32_t>(word), payload);
                break;
            }
            case WordKind::List:
                args[i] = word == 0 ? v_nil() : store.from_list(word_list(word, name().c_str()));
                break;
            }
        }
        SplValue result = v_nil();
        if (fn.boxed(args, fn.nparams, &result) != SPL_STATUS_OK) return 0; // the error stays pending
        return *fn.return_type ? result_word(result) : 0;
    });
}

} // namespace spl

extern "C" {

SPL_TORCH_EXPORT int64_t spl_w_result_tag(void) { return spl::t_result_tag; }
SPL_TORCH_EXPORT int64_t spl_w_error_pending(void) { return spl::t_error_pending ? 1 : 0; }
SPL_TORCH_EXPORT int64_t spl_w_last_error(void) {
    return reinterpret_cast<int64_t>(spl::thread_error_message().c_str());
}

} // extern "C"
