// Anomaly detection's switches (torch.autograd.set_detect_anomaly); the forward places it reports
// are anomaly_trace.cpp's.
#include "extras/extra_function.h"

#include <torch/csrc/autograd/anomaly_mode.h>

extern "C" {

// Anomaly detection (torch.autograd.set_detect_anomaly): LibTorch's process-wide switch; with
// check_nan, a backward function that returns NaN is an error naming it.
SPL_TORCH_EXPORT void rt_torch_set_anomaly_enabled(bool enabled, bool check_nan) {
    spl::guarded<void>(__func__, [&] { torch::autograd::AnomalyMode::set_enabled(enabled, check_nan); });
}

SPL_TORCH_EXPORT bool rt_torch_is_anomaly_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return torch::autograd::AnomalyMode::is_enabled(); });
}

SPL_TORCH_EXPORT bool rt_torch_is_anomaly_check_nan_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return torch::autograd::AnomalyMode::should_check_nan(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_set_anomaly_enabled, "enabled", "check_nan")
SPL_EXTRA(rt_torch_is_anomaly_enabled)
SPL_EXTRA(rt_torch_is_anomaly_check_nan_enabled)
