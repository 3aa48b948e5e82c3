// Converts ATen results to typed-ABI results, and those to boxed values.
#include "core/results.h"

namespace spl {

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

} // namespace spl
