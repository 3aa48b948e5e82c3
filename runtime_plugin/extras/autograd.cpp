// Autograd: no_grad regions, backward and gradients.
#include "extras/extra_function.h"

#include <ATen/core/grad_mode.h>
#include <torch/csrc/autograd/autograd.h>

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

// gradient: 0 for the implicit 1 of a scalar output.
SPL_TORCH_EXPORT void rt_torch_backward(int64_t t, int64_t gradient, bool retain_graph, bool create_graph) {
    spl::guarded<void>(__func__, [&] {
        const at::Tensor& output = spl::tensor(t, "tensor");
        std::vector<at::Tensor> grads;
        if (gradient != 0) grads.push_back(spl::tensor(gradient, "gradient"));
        torch::autograd::backward({output}, grads, retain_graph, create_graph);
    });
}

// A new handle to the gradient, or 0 when there is none yet.
SPL_TORCH_EXPORT int64_t rt_torch_grad(int64_t t) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::new_handle(spl::tensor(t, "tensor").grad()); });
}

SPL_TORCH_EXPORT void rt_torch_zero_grad(int64_t t) {
    spl::guarded<void>(__func__, [&] { spl::tensor(t, "tensor").mutable_grad().reset(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_no_grad_enter)
SPL_EXTRA(rt_torch_no_grad_exit, "previous")
SPL_EXTRA(rt_torch_is_grad_enabled)
SPL_EXTRA(rt_torch_backward, "t", "gradient", "retain_graph", "create_graph")
SPL_EXTRA(rt_torch_grad, "t")
SPL_EXTRA(rt_torch_zero_grad, "t")
