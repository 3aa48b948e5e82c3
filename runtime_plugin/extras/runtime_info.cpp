// Versions, seeding, CUDA and the error channel of the typed ABI.
#include "core/loaded_version.h"
#include "extras/extra_function.h"

#include <ATen/Context.h>
#include <ATen/detail/CUDAHooksInterface.h>

#ifndef SPL_TORCH_PLUGIN_VERSION
#define SPL_TORCH_PLUGIN_VERSION "0.1.0"
#endif

extern "C" {

SPL_TORCH_EXPORT const char* rt_torch_version(void) {
    return spl::guarded<const char*>(__func__, [&] { return spl_torch_generated_libtorch_version; });
}

// The LibTorch this process loaded, as found next to libtorch_cpu ("" if unknown).
SPL_TORCH_EXPORT const char* rt_torch_loaded_version(void) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::loaded_libtorch_version());
    });
}

SPL_TORCH_EXPORT const char* rt_torch_plugin_version(void) {
    return spl::guarded<const char*>(__func__, [&] { return SPL_TORCH_PLUGIN_VERSION; });
}

SPL_TORCH_EXPORT void rt_torch_manual_seed(int64_t seed) {
    spl::guarded<void>(__func__, [&] { at::manual_seed(static_cast<uint64_t>(seed)); });
}

SPL_TORCH_EXPORT bool rt_torch_cuda_is_available(void) {
    return spl::guarded<bool>(__func__, [&] { return at::detail::getCUDAHooks().hasCUDA(); });
}

SPL_TORCH_EXPORT int64_t rt_torch_cuda_device_count(void) {
    return spl::guarded<int64_t>(__func__, [&] {
        return at::detail::getCUDAHooks().hasCUDA() ? int64_t(at::detail::getCUDAHooks().getNumGPUs()) : int64_t(0);
    });
}

// The error channel itself is not `guarded`: these cannot fail, and a guard
// would clear the very state they report.

// The last failure's message on this thread ("" when none yet).
SPL_TORCH_EXPORT const char* rt_torch_last_error(void) { return spl::thread_error_message().c_str(); }

// Whether the previous call on this thread failed (typed ABI; a boxed call
// reports failure in its status instead).
SPL_TORCH_EXPORT bool rt_torch_error_pending(void) { return spl::t_error_pending; }

SPL_TORCH_EXPORT void rt_torch_clear_error(void) {
    spl::t_error_pending = false;
    spl::thread_error_message().clear();
}

} // extern "C"

SPL_EXTRA0(rt_torch_version, "extern fn rt_torch_version() -> text", "text")
SPL_EXTRA0(rt_torch_loaded_version, "extern fn rt_torch_loaded_version() -> text", "text")
SPL_EXTRA0(rt_torch_plugin_version, "extern fn rt_torch_plugin_version() -> text", "text")
SPL_EXTRA(rt_torch_manual_seed, "extern fn rt_torch_manual_seed(seed: i64)", "", {"seed", "i64", nullptr})
SPL_EXTRA0(rt_torch_cuda_is_available, "extern fn rt_torch_cuda_is_available() -> bool", "bool")
SPL_EXTRA0(rt_torch_cuda_device_count, "extern fn rt_torch_cuda_device_count() -> i64", "i64")
SPL_EXTRA0(rt_torch_last_error, "extern fn rt_torch_last_error() -> text", "text")
SPL_EXTRA0(rt_torch_error_pending, "extern fn rt_torch_error_pending() -> bool", "bool")
SPL_EXTRA0(rt_torch_clear_error, "extern fn rt_torch_clear_error()", "")
