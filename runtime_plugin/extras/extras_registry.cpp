// The list of hand-written entry points, merged with the generated ones by
// plugin_open.cpp. Each is defined next to its code with SPL_EXTRA.
#include "extras/extras_registry.h"

#define SPL_EXTRAS(X)                                                                                           \
    X(rt_torch_from_f64) X(rt_torch_from_i64) X(rt_torch_from_bool) X(rt_torch_from_complex)                \
    X(rt_torch_to_f64_list) X(rt_torch_to_i64_list) X(rt_torch_to_bool_list) X(rt_torch_to_complex_list)      \
    X(rt_torch_shape) X(rt_torch_dtype) X(rt_torch_device)                                                    \
    X(rt_torch_requires_grad) X(rt_torch_shares_storage) X(rt_torch_free) X(rt_torch_is_live)                \
    X(rt_torch_live_handles) X(rt_torch_no_grad_enter) X(rt_torch_no_grad_exit) X(rt_torch_is_grad_enabled) \
    X(rt_torch_backward) X(rt_torch_grad) X(rt_torch_zero_grad) X(rt_torch_version)                          \
    X(rt_torch_plugin_version) X(rt_torch_loaded_version) X(rt_torch_manual_seed) X(rt_torch_cuda_is_available)                         \
    X(rt_torch_cuda_device_count) X(rt_torch_last_error) X(rt_torch_error_pending) X(rt_torch_clear_error)    \
    X(rt_torch_format)

#define SPL_DECLARE_EXTRA(fn) extern const SplFunction spl_extra_##fn;
SPL_EXTRAS(SPL_DECLARE_EXTRA)

namespace spl {

std::vector<const SplFunction*> extra_functions() {
#define SPL_LIST_EXTRA(fn) &spl_extra_##fn,
    return {SPL_EXTRAS(SPL_LIST_EXTRA)};
}

} // namespace spl
