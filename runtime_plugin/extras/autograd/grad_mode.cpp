// Autograd's per-thread modes (torch.no_grad, torch.set_grad_enabled, torch.inference_mode) and
// the gradient-layout enforcement setting.
#include "core/autograd_compat.h"
#include "extras/extra_function.h"

#include <ATen/core/grad_mode.h>
#include <c10/core/InferenceMode.h>

namespace {

// An inference-mode region (torch.inference_mode) while its handle lives: LibTorch's guard,
// which restores the autograd state and dispatch keys it found when the handle is freed.
// Regions are left in the reverse order of entry, on the thread that entered them
// (a `with` block does both).
class InferenceModeRegion : public spl::HandleObject {
public:
    static constexpr const char* kKind = "an inference-mode region";
    explicit InferenceModeRegion(bool enabled) : guard_(enabled) {}
    const char* kind() const noexcept override { return kKind; }

private:
    c10::InferenceMode guard_;
};

} // namespace

extern "C" {

// Returns the previous grad mode, to hand back to rt_torch_no_grad_exit:
// regions nest, and grad mode is per thread, as in PyTorch.
SPL_TORCH_EXPORT bool rt_torch_no_grad_enter(void) {
    return spl::guarded<bool>(__func__, [&] {
        const bool previous = c10::GradMode::is_enabled();
        c10::GradMode::set_enabled(false);
        return previous;
    });
}

SPL_TORCH_EXPORT void rt_torch_no_grad_exit(bool previous) {
    spl::guarded<void>(__func__, [&] { c10::GradMode::set_enabled(previous); });
}

SPL_TORCH_EXPORT bool rt_torch_is_grad_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return c10::GradMode::is_enabled(); });
}

// torch.set_grad_enabled(mode): sets the mode now and returns the previous one (to restore).
SPL_TORCH_EXPORT bool rt_torch_set_grad_enabled(bool mode) {
    return spl::guarded<bool>(__func__, [&] {
        const bool previous = c10::GradMode::is_enabled();
        c10::GradMode::set_enabled(mode);
        return previous;
    });
}

// Enters an inference-mode region (enabled: false makes one that turns it off inside);
// returns its handle, for rt_torch_inference_mode_exit.
SPL_TORCH_EXPORT int64_t rt_torch_inference_mode_enter(bool enabled) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::HandleTable::instance().insert_object(std::make_shared<InferenceModeRegion>(enabled));
    });
}

// Leaves the region: the state it found comes back.
SPL_TORCH_EXPORT void rt_torch_inference_mode_exit(int64_t region) {
    spl::guarded<void>(__func__, [&] {
        spl::HandleTable& table = spl::HandleTable::instance();
        table.object<InferenceModeRegion>(region, "region", InferenceModeRegion::kKind); // refuses anything else
        table.release(region);
    });
}

SPL_TORCH_EXPORT bool rt_torch_is_inference_mode_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return c10::InferenceMode::is_enabled(); });
}

// torch.autograd.enforce_grad_layout_policy(enable): sets this thread's gradient-layout
// enforcement and returns the previous setting (to restore); refused where LibTorch has none.
SPL_TORCH_EXPORT bool rt_torch_set_grad_layout_enforcement_enabled(bool enabled) {
    return spl::guarded<bool>(__func__, [&] {
        bool supported = false;
        const bool previous = spl::compat::set_grad_layout_enforcement(enabled, supported);
        if (!supported)
            throw spl::SplError("enforce_grad_layout_policy needs a LibTorch whose autograd has gradient layout "
                                "enforcement (2.15 has it), and this is " TORCH_VERSION);
        return previous;
    });
}

SPL_TORCH_EXPORT bool rt_torch_is_grad_layout_enforcement_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return spl::compat::grad_layout_enforcement(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_no_grad_enter)
SPL_EXTRA(rt_torch_no_grad_exit, "previous")
SPL_EXTRA(rt_torch_is_grad_enabled)
SPL_EXTRA(rt_torch_set_grad_enabled, "mode")
SPL_EXTRA(rt_torch_inference_mode_enter, "enabled")
SPL_EXTRA(rt_torch_inference_mode_exit, "region")
SPL_EXTRA(rt_torch_is_inference_mode_enabled)
SPL_EXTRA(rt_torch_set_grad_layout_enforcement_enabled, "enabled")
SPL_EXTRA(rt_torch_is_grad_layout_enforcement_enabled)
