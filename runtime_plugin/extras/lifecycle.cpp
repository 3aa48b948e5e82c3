// Handle lifetime: free, liveness and the live count (for leak tests).
// clone and detach are ATen operators and come from the generated surface.
#include "extras/extra_function.h"

extern "C" {

SPL_TORCH_EXPORT void rt_torch_release(int64_t t) {
    spl::guarded<void>(__func__, [&] { spl::HandleTable::instance().release(t); });
}

SPL_TORCH_EXPORT bool rt_torch_is_live(int64_t t) {
    return spl::guarded<bool>(__func__, [&] { return spl::HandleTable::instance().is_live(t); });
}

SPL_TORCH_EXPORT int64_t rt_torch_live_handles(void) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::HandleTable::instance().live_count(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_release, "t")
SPL_EXTRA(rt_torch_is_live, "t")
SPL_EXTRA(rt_torch_live_handles)
