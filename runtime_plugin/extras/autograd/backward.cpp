// Backward (Tensor.backward, torch.autograd.backward) and the gradients it accumulates into
// (Tensor.grad).
#include "core/host_callbacks.h"
#include "extras/autograd/anomaly_trace.h"
#include "extras/extra_function.h"

#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/engine.h>

extern "C" {

// gradient: 0 for the implicit 1 of a scalar output.
SPL_TORCH_EXPORT void rt_torch_backward(int64_t t, int64_t gradient, bool retain_graph, bool create_graph) {
    spl::guarded<void>(__func__, [&] {
        const at::Tensor& output = spl::tensor(t, "tensor");
        std::vector<at::Tensor> grads;
        if (gradient != 0) grads.push_back(spl::tensor(gradient, "gradient"));
        spl::SingleThreadedBackward on_this_thread; // where Simple backward functions and hooks can run
        spl::with_forward_place([&] { torch::autograd::backward({output}, grads, retain_graph, create_graph); });
    });
}

// torch.autograd.backward: the gradients of several tensors at once, each weighted by its
// entry of `grad_tensors` (0: the implicit 1 of a scalar), accumulated into the leaves (only
// into `inputs`, when given).
SPL_TORCH_EXPORT void rt_torch_backward_many(SplI64Array tensors, SplI64Array grad_tensors, bool retain_graph,
                                             bool create_graph, SplI64Array inputs) {
    spl::guarded<void>(__func__, [&] {
        const std::vector<at::Tensor> outputs = spl::tensor_list(tensors, "tensors");
        spl::check_list(grad_tensors.len, grad_tensors.data, "grad_tensors");
        TORCH_CHECK(grad_tensors.len == 0 || grad_tensors.len == tensors.len, "grad_tensors: got ", grad_tensors.len,
                    " gradients for ", tensors.len, " tensors");
        std::vector<at::Tensor> grads;
        for (int64_t i = 0; i < grad_tensors.len; ++i)
            grads.push_back(grad_tensors.data[i] == 0 ? at::Tensor()
                                                      : spl::tensor(grad_tensors.data[i], "grad_tensors"));
        const std::vector<at::Tensor> only = spl::tensor_list(inputs, "inputs");
        spl::SingleThreadedBackward on_this_thread;
        spl::with_forward_place([&] { torch::autograd::backward(outputs, grads, retain_graph, create_graph, only); });
    });
}

// Whether a backward now running may re-run forward code that calls backward() itself (a
// checkpoint's recomputation): false inside autograd.grad or a backward given `inputs`.
SPL_TORCH_EXPORT bool rt_torch_is_checkpoint_valid(void) {
    return spl::guarded<bool>(__func__,
                              [&] { return torch::autograd::Engine::get_default_engine().is_checkpoint_valid(); });
}

// A new handle to the gradient, or 0 when there is none yet.
SPL_TORCH_EXPORT int64_t rt_torch_grad(int64_t t) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::new_handle(spl::tensor(t, "tensor").grad()); });
}

// `x.grad = g` (0: None), with PyTorch's checks of the assigned gradient.
SPL_TORCH_EXPORT void rt_torch_set_grad(int64_t t, int64_t g) {
    spl::guarded<void>(__func__, [&] {
        const at::Tensor& tensor = spl::tensor(t, "tensor");
        if (g == 0) {
            tensor.mutable_grad().reset();
            return;
        }
        const at::Tensor& grad = spl::tensor(g, "grad");
        TORCH_CHECK(grad.dtype() == tensor.dtype(), "assigned grad has data of a different type");
        TORCH_CHECK(grad.device() == tensor.device(), "assigned grad has data located on a different device");
        TORCH_CHECK(grad.sizes() == tensor.sizes(), "assigned grad has data of a different size");
        tensor.mutable_grad() = grad;
    });
}

SPL_TORCH_EXPORT void rt_torch_zero_grad(int64_t t) {
    spl::guarded<void>(__func__, [&] { spl::tensor(t, "tensor").mutable_grad().reset(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_backward, "t", "gradient", "retain_graph", "create_graph")
SPL_EXTRA(rt_torch_backward_many, "tensors", "grad_tensors", "retain_graph", "create_graph", "inputs")
SPL_EXTRA(rt_torch_is_checkpoint_valid)
SPL_EXTRA(rt_torch_grad, "t")
SPL_EXTRA(rt_torch_set_grad, "t", "g")
SPL_EXTRA(rt_torch_zero_grad, "t")
