// WordList items, and the exported list functions of the word convention.
#include "word/word_list.h"

#include "core/results.h"
#include "generated_support.h"

#include <cstring>
#include <unordered_set>

namespace spl {

std::shared_ptr<WordList> word_list(int64_t handle, const char* what) {
    return HandleTable::instance().object<WordList>(handle, what, WordList::kKind);
}

WordItem word_item(int64_t tag, int64_t word, const std::string& what) {
    check_tagged(tag, word, [&] { return what; });
    WordItem item;
    item.tag = static_cast<int32_t>(tag);
    if (tag == SPL_TEXT)
        item.text = reinterpret_cast<const char*>(word);
    else if (tag == SPL_ARRAY)
        item.list = word_list(word, what.c_str());
    else if (tag != SPL_NIL)
        item.word = word;
    return item;
}

int64_t scalar_word(const SplValue& value) {
    switch (value.tag) {
    case SPL_BOOL: return value.as.b ? 1 : 0;
    case SPL_I64: return value.as.i;
    case SPL_F64: {
        int64_t bits;
        std::memcpy(&bits, &value.as.f, sizeof bits);
        return bits;
    }
    default: return 0;
    }
}

SplValue scalar_value(int32_t tag, int64_t word) {
    switch (tag) {
    case SPL_BOOL: return v_bool(word != 0);
    case SPL_I64: return v_i64(word);
    case SPL_F64: {
        double f;
        std::memcpy(&f, &word, sizeof f);
        return v_f64(f);
    }
    default: return v_nil();
    }
}

WordItem item_of(const SplValue& value) {
    WordItem item;
    item.tag = value.tag;
    switch (value.tag) {
    case SPL_BOOL:
    case SPL_I64:
    case SPL_F64: item.word = scalar_word(value); break;
    case SPL_TEXT: item.text.assign(value.as.text.ptr, static_cast<size_t>(value.as.text.len)); break;
    case SPL_ARRAY:
        item.list = std::make_shared<WordList>();
        for (int64_t k = 0; k < value.as.array.len; ++k) item.list->items.push_back(item_of(value.as.array.items[k]));
        break;
    default: item.tag = SPL_NIL; break;
    }
    return item;
}

namespace {

// Whether `list` is `target` or holds it at any depth. A push that would make a cycle is
// refused, so lists never form one: a cycle would never be freed (shared_ptr) and a call
// taking the list would recurse without end. Iterative: a chain of lists may be deep.
bool holds(const WordList* list, const WordList* target) {
    std::vector<const WordList*> pending{list};
    std::unordered_set<const WordList*> seen;
    while (!pending.empty()) {
        const WordList* l = pending.back();
        pending.pop_back();
        if (l == target) return true;
        if (!seen.insert(l).second) continue;
        for (const WordItem& item : l->items)
            if (item.list) pending.push_back(item.list.get());
    }
    return false;
}

const WordItem& item_at(const WordList& list, int64_t index, const char* what) {
    if (index < 0 || index >= static_cast<int64_t>(list.items.size()))
        throw SplError(std::string(what) + ": index " + std::to_string(index) + " is out of range for a list of " +
                       std::to_string(list.items.size()));
    return list.items[static_cast<size_t>(index)];
}

} // namespace
} // namespace spl

extern "C" {

SPL_TORCH_EXPORT int64_t spl_w_list_new(void) {
    return spl::guarded<int64_t>(
        __func__, [] { return spl::HandleTable::instance().insert_object(std::make_shared<spl::WordList>()); });
}

SPL_TORCH_EXPORT int64_t spl_w_list_push(int64_t list, int64_t tag, int64_t count, int64_t w0, int64_t w1, int64_t w2,
                                         int64_t w3, int64_t w4) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto target = spl::word_list(list, "list");
        if (count < 1 || count > 5) throw spl::SplError("count must be 1 to 5, got " + std::to_string(count));
        const int64_t words[] = {w0, w1, w2, w3, w4};
        // Checked first, then appended: a failing push leaves the list as it was.
        std::vector<spl::WordItem> items;
        for (int64_t k = 0; k < count; ++k) {
            const std::string what = "item " + std::to_string(target->items.size() + k);
            items.push_back(spl::word_item(tag, words[k], what));
            if (items.back().list && spl::holds(items.back().list.get(), target.get()))
                throw spl::SplError(what + ": a list cannot hold itself (this list is, or holds, the list pushed to)");
        }
        for (auto& item : items) target->items.push_back(std::move(item));
        return list;
    });
}

SPL_TORCH_EXPORT int64_t spl_w_list_len(int64_t list) {
    return spl::guarded<int64_t>(__func__,
                                 [&] { return static_cast<int64_t>(spl::word_list(list, "list")->items.size()); });
}

SPL_TORCH_EXPORT int64_t spl_w_list_tag(int64_t list, int64_t index) {
    return spl::guarded<int64_t>(
        __func__, [&] { return int64_t{spl::item_at(*spl::word_list(list, "list"), index, "list").tag}; });
}

SPL_TORCH_EXPORT int64_t spl_w_list_word(int64_t list, int64_t index) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
        auto owner = spl::word_list(list, "list");
        const spl::WordItem& item = spl::item_at(*owner, index, "list");
        if (item.tag == SPL_TEXT) return reinterpret_cast<int64_t>(item.text.c_str());
        if (item.tag == SPL_ARRAY) return spl::HandleTable::instance().insert_object(item.list);
        return item.word;
    });
}

} // extern "C"
