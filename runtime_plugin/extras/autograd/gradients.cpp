// torch.autograd.grad: gradients returned, not accumulated.
#include "core/host_callbacks.h"
#include "extras/autograd/anomaly_trace.h"
#include "extras/extra_function.h"

#include <torch/csrc/autograd/autograd.h>

#include <string>
#include <vector>

namespace {

// A shape as Python prints it: torch.Size([2, 3]).
std::string torch_size(at::IntArrayRef sizes) {
    std::string text = "torch.Size([";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + "])";
}

} // namespace

extern "C" {

// torch.autograd.grad: new handles to the gradients of `outputs` (each weighted by its entry
// of `grad_outputs`; 0 there is the implicit 1 of a scalar output) with respect to `inputs`,
// one per input, 0 for an input the outputs do not reach (allowed by allow_unused). Nothing
// is accumulated into `.grad`. The checks LibTorch's C++ API leaves to Python's
// torch.autograd.grad (an input that cannot have a gradient, a weight of another shape, an
// unused input) are made here with Python's messages.
SPL_TORCH_EXPORT SplValue rt_torch_gradients(SplI64Array outputs, SplI64Array inputs, SplI64Array grad_outputs,
                                             bool retain_graph, bool create_graph, bool allow_unused) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        const std::vector<at::Tensor> outs = spl::tensor_list(outputs, "outputs");
        const std::vector<at::Tensor> ins = spl::tensor_list(inputs, "inputs");
        for (const at::Tensor& input : ins)
            TORCH_CHECK(input.requires_grad(), "One of the differentiated Tensors does not require grad");
        spl::check_list(grad_outputs.len, grad_outputs.data, "grad_outputs");
        std::vector<at::Tensor> weights;
        for (int64_t i = 0; i < grad_outputs.len; ++i) {
            weights.push_back(grad_outputs.data[i] == 0 ? at::Tensor()
                                                        : spl::tensor(grad_outputs.data[i], "grad_outputs"));
            const size_t k = static_cast<size_t>(i);
            if (weights.back().defined() && k < outs.size() && weights.back().sizes() != outs[k].sizes())
                TORCH_CHECK(false, "Mismatch in shape: grad_output[", i, "] has a shape of ",
                            torch_size(weights.back().sizes()), " and output[", i, "] has a shape of ",
                            torch_size(outs[k].sizes()), ".");
        }
        spl::SingleThreadedBackward on_this_thread;
        std::vector<at::Tensor> grads;
        spl::with_forward_place([&] {
            grads = torch::autograd::grad(outs, ins, weights, retain_graph, create_graph, /*allow_unused=*/true);
        });
        for (size_t i = 0; i < grads.size() && !allow_unused; ++i)
            TORCH_CHECK(grads[i].defined(), "The differentiated Tensor at index ", i,
                        " appears to not have been used in the graph. Set allow_unused=True if this is the "
                        "desired behavior.");
        return spl::tensor_list_value(grads);
    });
}

} // extern "C"

SPL_EXTRA_RETURNS(rt_torch_gradients, "[i64]", "outputs", "inputs", "grad_outputs", "retain_graph", "create_graph",
                  "allow_unused")
