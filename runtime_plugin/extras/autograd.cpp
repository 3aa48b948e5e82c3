// Autograd: grad-mode, inference-mode and anomaly-mode state, backward, gradients (torch.autograd.grad),
// forward-mode levels.
#include "core/autograd_compat.h"
#include "core/host_callbacks.h"
#include "extras/anomaly_trace.h"
#include "extras/extra_function.h"

#include <ATen/core/grad_mode.h>
#include <c10/core/InferenceMode.h>
#include <torch/csrc/autograd/anomaly_mode.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/forward_grad.h>
#include <torch/csrc/autograd/function.h>
#include <ATen/ops/_unpack_dual.h>

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

using spl::compat::NodePtr;

// A node of the autograd graph (a tensor's grad_fn, or one of its next_functions) while its
// handle lives: lib.torch's Node reads its name and edges.
class GradFn : public spl::HandleObject {
public:
    static constexpr const char* kKind = "an autograd node";
    explicit GradFn(NodePtr node) : node(std::move(node)) {}
    const char* kind() const noexcept override { return kKind; }
    const NodePtr node;
};

int64_t node_handle(NodePtr node) {
    if (!node) return 0;
    return spl::HandleTable::instance().insert_object(std::make_shared<GradFn>(std::move(node)));
}

NodePtr node_of(int64_t handle) {
    return spl::HandleTable::instance().object<GradFn>(handle, "node", GradFn::kKind)->node;
}

// A shape as Python prints it: torch.Size([2, 3]).
std::string torch_size(at::IntArrayRef sizes) {
    std::string text = "torch.Size([";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + "])";
}

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

// Forward-mode AD's levels (torch.autograd.forward_ad.enter_dual_level / exit_dual_level):
// LibTorch's, one at a time.
SPL_TORCH_EXPORT int64_t rt_torch_enter_dual_level(void) {
    return spl::guarded<int64_t>(__func__,
                                 [&] { return static_cast<int64_t>(torch::autograd::ForwardADLevel::get_next_idx()); });
}

SPL_TORCH_EXPORT void rt_torch_exit_dual_level(int64_t level) {
    spl::guarded<void>(__func__, [&] {
        TORCH_CHECK(level >= 0, "exit_dual_level: level must be >= 0, got ", level);
        torch::autograd::ForwardADLevel::release_idx(static_cast<uint64_t>(level));
    });
}

// torch.autograd.forward_ad.unpack_dual: new handles to the primal and the tangent at `level`
// (0 for a tensor without one).
SPL_TORCH_EXPORT SplValue rt_torch_unpack_dual(int64_t t, int64_t level) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        auto [primal, tangent] = at::_unpack_dual(spl::tensor(t, "tensor"), level);
        return spl::tensor_list_value({primal, tangent});
    });
}

// Tensor.grad_fn: a handle to the node that made the tensor, 0 for a leaf or a tensor that
// does not require grad.
SPL_TORCH_EXPORT int64_t rt_torch_grad_fn(int64_t t) {
    return spl::guarded<int64_t>(__func__, [&] { return node_handle(spl::tensor(t, "tensor").grad_fn()); });
}

// Node.name(): "MulBackward0", "torch::autograd::AccumulateGrad", ...
SPL_TORCH_EXPORT const char* rt_torch_node_name(int64_t node) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(node_of(node)->name());
    });
}

// Node.next_functions, flattened: a new node handle (0 for None) and its input number per edge.
SPL_TORCH_EXPORT SplValue rt_torch_node_next_functions(int64_t node) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        const auto& edges = node_of(node)->next_edges();
        SplValue* items = spl::ResultArena::current().values(2 * edges.size());
        for (size_t i = 0; i < edges.size(); ++i) {
            items[2 * i] = spl::v_i64(node_handle(edges[i].function));
            items[2 * i + 1] = spl::v_i64(static_cast<int64_t>(edges[i].input_nr));
        }
        return spl::v_array(items, static_cast<int64_t>(2 * edges.size()));
    });
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

SPL_TORCH_EXPORT void rt_torch_zero_grad(int64_t t) {
    spl::guarded<void>(__func__, [&] { spl::tensor(t, "tensor").mutable_grad().reset(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_no_grad_enter)
SPL_EXTRA(rt_torch_no_grad_exit, "previous")
SPL_EXTRA(rt_torch_is_grad_enabled)
SPL_EXTRA(rt_torch_set_grad_enabled, "mode")
SPL_EXTRA(rt_torch_inference_mode_enter, "enabled")
SPL_EXTRA(rt_torch_inference_mode_exit, "region")
SPL_EXTRA(rt_torch_is_inference_mode_enabled)
SPL_EXTRA(rt_torch_backward, "t", "gradient", "retain_graph", "create_graph")
SPL_EXTRA(rt_torch_backward_many, "tensors", "grad_tensors", "retain_graph", "create_graph", "inputs")
SPL_EXTRA(rt_torch_is_checkpoint_valid)
SPL_EXTRA(rt_torch_set_grad_layout_enforcement_enabled, "enabled")
SPL_EXTRA(rt_torch_is_grad_layout_enforcement_enabled)
SPL_EXTRA_RETURNS(rt_torch_gradients, "[i64]", "outputs", "inputs", "grad_outputs", "retain_graph", "create_graph",
                  "allow_unused")
SPL_EXTRA(rt_torch_set_anomaly_enabled, "enabled", "check_nan")
SPL_EXTRA(rt_torch_is_anomaly_enabled)
SPL_EXTRA(rt_torch_is_anomaly_check_nan_enabled)
SPL_EXTRA(rt_torch_enter_dual_level)
SPL_EXTRA(rt_torch_exit_dual_level, "level")
SPL_EXTRA_RETURNS(rt_torch_unpack_dual, "[i64]", "t", "level")
SPL_EXTRA(rt_torch_grad_fn, "t")
SPL_EXTRA(rt_torch_node_name, "node")
SPL_EXTRA_RETURNS(rt_torch_node_next_functions, "[i64]", "node")
SPL_EXTRA(rt_torch_grad, "t")
SPL_EXTRA(rt_torch_set_grad, "t", "g")
SPL_EXTRA(rt_torch_zero_grad, "t")
