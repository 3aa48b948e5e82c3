// Converts ATen results to typed-ABI results, and those to boxed values.
#include "core/results.h"

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

SplValue scalar_value(const at::Scalar& s) {
    if (s.isBoolean()) return v_bool(s.toBool());
    if (s.isIntegral(false)) return v_i64(s.toLong());
    return v_f64(s.toDouble());
}

SplValue tensor_list_value(const std::vector<at::Tensor>& tensors) {
    SplValue* items = ResultArena::current().values(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) items[i] = v_i64(new_handle(tensors[i]));
    return v_array(items, static_cast<int64_t>(tensors.size()));
}

SplValue handle_list_value(SplI64Array handles) {
    const int64_t n = handles.len < 0 ? 0 : handles.len;
    SplValue* items = ResultArena::current().values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) items[i] = v_i64(handles.data[i]);
    return v_array(items, n);
}

SplValue int_list_value(c10::IntArrayRef values) {
    SplValue* items = ResultArena::current().values(values.size());
    for (size_t i = 0; i < values.size(); ++i) items[i] = v_i64(values[i]);
    return v_array(items, static_cast<int64_t>(values.size()));
}

SplValue tuple_value(std::initializer_list<SplValue> items) {
    SplValue* out = ResultArena::current().values(items.size());
    size_t i = 0;
    for (const SplValue& item : items) out[i++] = item;
    return v_array(out, static_cast<int64_t>(items.size()));
}

} // namespace spl
