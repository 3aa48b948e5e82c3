// Boxed value constructors and the per-thread result arena (no LibTorch).
#include "abi/boxed_values.h"

#include <cstring>

namespace spl {

ResultArena& ResultArena::current() noexcept {
    thread_local ResultArena arena;
    return arena;
}

SplValue* ResultArena::values(size_t n) {
    // One block per array, reused call after call: no allocation in steady state.
    if (used_ == blocks_.size()) blocks_.emplace_back();
    std::vector<SplValue>& block = blocks_[used_++];
    block.resize(n);
    return block.data();
}

const char* ResultArena::text(std::string value) {
    if (texts_used_ == texts_.size()) texts_.emplace_back();
    texts_[texts_used_] = std::move(value);
    return texts_[texts_used_++].c_str();
}

SplValue v_text(const char* s) {
    if (!s) return v_nil();
    SplValue v;
    v.tag = SPL_TEXT;
    v.as.text = SplText{s, static_cast<int64_t>(std::strlen(s))};
    return v;
}

SplValue v_array(const SplValue* items, int64_t len) {
    SplValue v;
    v.tag = SPL_ARRAY;
    v.as.array = SplArray{items, len};
    return v;
}

SplValue tuple_value(std::initializer_list<SplValue> items) {
    SplValue* out = ResultArena::current().values(items.size());
    size_t i = 0;
    for (const SplValue& item : items) out[i++] = item;
    return v_array(out, static_cast<int64_t>(items.size()));
}

} // namespace spl
