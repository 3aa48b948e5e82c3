// Autocast's per-thread state, as torch.amp reads and sets it (torch.is_autocast_enabled,
// set_autocast_dtype, autocast_increment_nesting ...). Turning autocast on for a device type
// puts its Autocast dispatch key in the thread's set, so the casting lists are ATen's own.
#include "core/enum_names.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"

#include <ATen/autocast_mode.h>
#include <c10/util/Exception.h>

namespace {

at::DeviceType device_type(const char* name) { return spl::parse_device(name).type(); }

#if !SPL_TORCH_AT_LEAST(2, 4)
// LibTorch before 2.4 has one function per device type, for the CPU and CUDA.
void check_old_device(at::DeviceType type) {
    TORCH_CHECK(type == at::kCPU || type == at::kCUDA, "autocast on ", c10::DeviceTypeName(type, true),
                " needs LibTorch 2.4 or later");
}
#endif

} // namespace

extern "C" {

SPL_TORCH_EXPORT bool rt_torch_is_autocast_available(const char* device) {
    return spl::guarded<bool>(__func__, [&] {
        const auto type = device_type(device);
#if SPL_TORCH_AT_LEAST(2, 4)
        return at::autocast::is_autocast_available(type);
#else
        return type == at::kCPU || type == at::kCUDA;
#endif
    });
}

SPL_TORCH_EXPORT bool rt_torch_is_autocast_enabled(const char* device) {
    return spl::guarded<bool>(__func__, [&] {
        const auto type = device_type(device);
#if SPL_TORCH_AT_LEAST(2, 4)
        return at::autocast::is_autocast_enabled(type);
#else
        check_old_device(type);
        return type == at::kCPU ? at::autocast::is_cpu_enabled() : at::autocast::is_enabled();
#endif
    });
}

SPL_TORCH_EXPORT void rt_torch_set_autocast_enabled(const char* device, bool enabled) {
    spl::guarded<void>(__func__, [&] {
        const auto type = device_type(device);
#if SPL_TORCH_AT_LEAST(2, 4)
        at::autocast::set_autocast_enabled(type, enabled);
#else
        check_old_device(type);
        type == at::kCPU ? at::autocast::set_cpu_enabled(enabled) : at::autocast::set_enabled(enabled);
#endif
    });
}

SPL_TORCH_EXPORT const char* rt_torch_get_autocast_dtype(const char* device) {
    return spl::guarded<const char*>(__func__, [&] {
        const auto type = device_type(device);
#if SPL_TORCH_AT_LEAST(2, 4)
        return spl::dtype_name(at::autocast::get_autocast_dtype(type));
#else
        check_old_device(type);
        return spl::dtype_name(type == at::kCPU ? at::autocast::get_autocast_cpu_dtype()
                                                : at::autocast::get_autocast_gpu_dtype());
#endif
    });
}

SPL_TORCH_EXPORT void rt_torch_set_autocast_dtype(const char* device, const char* dtype) {
    spl::guarded<void>(__func__, [&] {
        const auto type = device_type(device);
        const auto scalar = spl::parse_dtype(dtype);
#if SPL_TORCH_AT_LEAST(2, 4)
        at::autocast::set_autocast_dtype(type, scalar);
#else
        check_old_device(type);
        type == at::kCPU ? at::autocast::set_autocast_cpu_dtype(scalar) : at::autocast::set_autocast_gpu_dtype(scalar);
#endif
    });
}

SPL_TORCH_EXPORT bool rt_torch_is_autocast_cache_enabled(void) {
    return spl::guarded<bool>(__func__, [] { return at::autocast::is_autocast_cache_enabled(); });
}

SPL_TORCH_EXPORT void rt_torch_set_autocast_cache_enabled(bool enabled) {
    spl::guarded<void>(__func__, [&] { at::autocast::set_autocast_cache_enabled(enabled); });
}

// The nesting depth after the change; leaving the outermost region clears the cast cache.
SPL_TORCH_EXPORT int64_t rt_torch_autocast_increment_nesting(void) {
    return spl::guarded<int64_t>(__func__, [] { return static_cast<int64_t>(at::autocast::increment_nesting()); });
}

SPL_TORCH_EXPORT int64_t rt_torch_autocast_decrement_nesting(void) {
    return spl::guarded<int64_t>(__func__, [] { return static_cast<int64_t>(at::autocast::decrement_nesting()); });
}

SPL_TORCH_EXPORT void rt_torch_clear_autocast_cache(void) {
    spl::guarded<void>(__func__, [] { at::autocast::clear_cache(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_is_autocast_available, "device_type")
SPL_EXTRA(rt_torch_is_autocast_enabled, "device_type")
SPL_EXTRA(rt_torch_set_autocast_enabled, "device_type", "enabled")
SPL_EXTRA(rt_torch_get_autocast_dtype, "device_type")
SPL_EXTRA(rt_torch_set_autocast_dtype, "device_type", "dtype")
SPL_EXTRA(rt_torch_is_autocast_cache_enabled)
SPL_EXTRA(rt_torch_set_autocast_cache_enabled, "enabled")
SPL_EXTRA(rt_torch_autocast_increment_nesting)
SPL_EXTRA(rt_torch_autocast_decrement_nesting)
SPL_EXTRA(rt_torch_clear_autocast_cache)
