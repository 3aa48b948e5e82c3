// Custom autograd Functions written in the host language (torch.autograd.Function): the graph
// node whose backward is a host callable, and rt_torch_function_apply, which ties a forward's
// results into the graph as PyTorch's Function.apply does (its _wrap_outputs and
// _save_variables), with PyTorch's checks and messages.
#include "core/autograd_compat.h"
#include "core/host_callbacks.h"
#include "extras/extra_function.h"
#include "extras/lent_handles.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/autograd/variable.h>

#include <optional>

namespace {

using torch::autograd::Edge;
using torch::autograd::SavedVariable;
using torch::autograd::variable_list;

// The tensors of a handle list, undefined where a handle is 0 (None, or no tensor at all).
std::vector<at::Tensor> tensors_or_none(SplI64Array handles, const char* what) {
    spl::check_list(handles.len, handles.data, what);
    std::vector<at::Tensor> tensors;
    for (int64_t i = 0; i < handles.len; ++i)
        tensors.push_back(handles.data[i] == 0 ? at::Tensor() : spl::tensor(handles.data[i], what));
    return tensors;
}

bool same_tensor(const at::Tensor& a, const at::Tensor& b) {
    return a.defined() && b.defined() && a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl();
}

bool holds(const std::vector<at::Tensor>& tensors, const at::Tensor& t) {
    for (const at::Tensor& x : tensors)
        if (same_tensor(x, t)) return true;
    return false;
}

// The gradients a host backward returned: an array of handles given to the plugin (each
// released here) or nil. Every handle is released before any is judged.
std::vector<std::optional<at::Tensor>> take_gradients(const SplValue& result, const std::string& node) {
    TORCH_CHECK(result.tag == SPL_ARRAY, "function ", node, " must return its gradients as an array, got ",
                spl::tag_name(result.tag));
    std::vector<std::optional<at::Tensor>> grads;
    std::string problem;
    for (int64_t i = 0; i < result.as.array.len; ++i) {
        try {
            grads.push_back(spl::take_tensor(result.as.array.items[i], "gradient " + std::to_string(i + 1)));
        } catch (const spl::SplError&) {
            grads.emplace_back(std::nullopt);
            if (problem.empty())
                problem = "function " + node + " returned something other than a Tensor or None at position " +
                          std::to_string(i + 1);
        }
    }
    TORCH_CHECK(problem.empty(), problem);
    return grads;
}

// A tensor output's shape and options: what a missing gradient for it materialises as.
struct OutputInfo {
    bool is_tensor = false;
    std::vector<int64_t> sizes;
    at::TensorOptions options;
};

// The backward node of one application of a host Function ("ExpBackward").
class HostFunctionNode : public torch::autograd::Node {
public:
    HostFunctionNode(std::string name, const SplValue& backward, std::vector<bool> tensor_inputs, bool materialize,
                     bool once_differentiable)
        : name_(std::move(name)), backward_(backward, "backward"), tensor_inputs_(std::move(tensor_inputs)),
          materialize_(materialize), once_differentiable_(once_differentiable) {}

    std::string name() const override { return name_; }

    // After a backward without retain_graph: a second one then gets SavedVariable's message.
    void release_variables() override {
        for (SavedVariable& s : saved_) s.reset_data();
    }

    std::vector<OutputInfo> outputs;
    std::vector<SavedVariable> saved_;

    variable_list apply(variable_list&& grads) override {
        for (size_t i = 0; i < grads.size() && materialize_; ++i)
            if (!grads[i].defined() && i < outputs.size() && outputs[i].is_tensor)
                grads[i] = at::zeros(outputs[i].sizes, outputs[i].options);
        std::vector<at::Tensor> saved;
        for (const SavedVariable& s : saved_)
            saved.push_back(s.unpack(spl::compat::self_ptr<torch::autograd::Node>(*this)));
        std::vector<std::optional<at::Tensor>> returned;
        {
            std::optional<at::NoGradGuard> no_grad;
            if (once_differentiable_) no_grad.emplace();
            const spl::LentHandles lent_grads(grads), lent_saved(saved);
            const SplValue args[2] = {lent_grads.array(), lent_saved.array()};
            returned = take_gradients(backward_.call(args, 2, name_.c_str()), name_);
        }
        check_count(returned);
        variable_list result;
        for (size_t i = 0; i < tensor_inputs_.size(); ++i) {
            if (tensor_inputs_[i])
                result.push_back(returned[i].value_or(at::Tensor()));
            else
                TORCH_CHECK(!returned[i], "function ", name_, " returned a gradient different than None at position ",
                            i + 1, ", but the corresponding forward input was not a Variable");
        }
        if (once_differentiable_) return guard_second_derivative(grads, std::move(result));
        return result;
    }

private:
    // PyTorch's rule: one gradient per forward input; more only when the extra ones are None.
    void check_count(std::vector<std::optional<at::Tensor>>& returned) const {
        const size_t expected = tensor_inputs_.size();
        bool extra_all_none = true;
        for (size_t i = expected; i < returned.size(); ++i) extra_all_none = extra_all_none && !returned[i];
        if (returned.size() > expected && extra_all_none) returned.resize(expected);
        TORCH_CHECK(returned.size() == expected, "function ", name_,
                    " returned an incorrect number of gradients (expected ", expected, ", got ", returned.size(), ")");
    }

    // once_differentiable: where a graph of the gradients is being made (create_graph), they
    // come out of a node that refuses to be differentiated, as PyTorch's decorator makes.
    variable_list guard_second_derivative(const variable_list& grads, variable_list result) const {
        bool any_requires_grad = false;
        for (const at::Tensor& g : grads) any_requires_grad = any_requires_grad || (g.defined() && g.requires_grad());
        if (!at::GradMode::is_enabled() || !any_requires_grad) return result;
        variable_list leaves;
        for (const at::Tensor& r : result) leaves.push_back(r.defined() ? r.detach().requires_grad_(true) : r);
        auto refusal = spl::compat::make_node<torch::autograd::DelayedError>(
            "trying to differentiate twice a function that was marked with @once_differentiable",
            static_cast<int64_t>(leaves.size()));
        return (*refusal)(std::move(leaves));
    }

    const std::string name_;
    const spl::HostCallable backward_;
    const std::vector<bool> tensor_inputs_; // per forward input: whether it was a tensor
    const bool materialize_;
    const bool once_differentiable_;
};

// A view of the whole tensor, made without history (PyTorch's _view_as_self_with_no_grad).
at::Tensor alias_without_history(const at::Tensor& t) {
    at::NoGradGuard no_grad;
    return t.view_as(t);
}

// An output of the node: PyTorch's _wrap_outputs for one tensor.
at::Tensor wire_output(HostFunctionNode& node, const spl::compat::NodePtr& self, at::Tensor var, bool is_input,
                       bool dirty, bool differentiable) {
    namespace impl = torch::autograd::impl;
    if (!differentiable) {
        node.add_input_metadata(torch::autograd::Node::undefined_input());
        if (!var.requires_grad()) return is_input && !dirty ? alias_without_history(var) : var;
        if (is_input) return var.detach();
        if (!var.is_view()) var.detach_();
        return var;
    }
    if (dirty) {
        TORCH_CHECK(!var.is_leaf() || !var.requires_grad(),
                    "a leaf Variable that requires grad has been used in an in-place operation.");
        var.mutable_grad().reset();
        const uint32_t nr = node.add_input_metadata(var);
        impl::rebase_history(var, Edge(self, nr));
        return var;
    }
    if (is_input) var = alias_without_history(var); // an input returned as it is: an alias takes the new history
    const uint32_t nr = node.add_input_metadata(var);
    impl::set_gradient_edge(var, Edge(self, nr));
    return var;
}

} // namespace

extern "C" {

// torch.autograd.Function.apply, after the host ran the forward (under no_grad): `inputs` has
// one handle per forward input (0 for one that is not a tensor), `outputs` one per tensor the
// forward returned; `saved` are ctx.save_for_backward's tensors (0 for None), `dirty` and
// `non_differentiable` ctx.mark_dirty's and ctx.mark_non_differentiable's. When grad mode is
// on and an input requires grad, a node named `name` takes the outputs' history and keeps
// `backward` (a host callable taking the incoming gradients and the saved tensors, as arrays
// of borrowed handles, and returning an array of new handles, or nil, per forward input).
// Returns new handles to the outputs as tied into the graph.
SPL_TORCH_EXPORT SplValue rt_torch_function_apply(const char* name, SplI64Array inputs, SplI64Array outputs,
                                                  SplI64Array saved, SplI64Array dirty, SplI64Array non_differentiable,
                                                  SplValue backward, bool materialize_grads, bool once_differentiable) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        const std::vector<at::Tensor> ins = tensors_or_none(inputs, "inputs");
        std::vector<at::Tensor> outs = spl::tensor_list(outputs, "outputs");
        const std::vector<at::Tensor> to_save = tensors_or_none(saved, "saved");
        const std::vector<at::Tensor> modified = spl::tensor_list(dirty, "dirty");
        const std::vector<at::Tensor> constant = spl::tensor_list(non_differentiable, "non_differentiable");
        for (const at::Tensor& d : modified)
            TORCH_CHECK(holds(outs, d), "Some elements marked as dirty during the forward method were not returned "
                                        "as output. The inputs that are modified inplace must all be outputs of the "
                                        "Function.");
        bool any_requires_grad = false;
        for (const at::Tensor& t : ins) any_requires_grad = any_requires_grad || (t.defined() && t.requires_grad());
        if (!at::GradMode::is_enabled() || !any_requires_grad) {
            if (backward.tag != SPL_CALLABLE)
                throw spl::SplError(std::string("backward must be a function, got ") + spl::tag_name(backward.tag));
            return spl::tensor_list_value(outs);
        }
        std::vector<bool> tensor_inputs;
        torch::autograd::edge_list edges;
        for (const at::Tensor& t : ins) {
            tensor_inputs.push_back(t.defined());
            if (t.defined()) edges.push_back(t.requires_grad() ? torch::autograd::impl::gradient_edge(t) : Edge());
        }
        auto node = spl::compat::make_node<HostFunctionNode>(
            std::string(name) + "Backward", backward, std::move(tensor_inputs), materialize_grads, once_differentiable);
        node->set_next_edges(std::move(edges));
        const spl::compat::NodePtr self = node;
        for (at::Tensor& out : outs) {
            out = wire_output(*node, self, out, holds(ins, out), holds(modified, out), !holds(constant, out));
            node->outputs.push_back(OutputInfo{true, out.sizes().vec(), out.options()});
        }
        for (const at::Tensor& t : to_save)
            node->saved_.emplace_back(t.defined() ? SavedVariable(t, t.grad_fn().get() == node.get())
                                                  : SavedVariable());
        return spl::tensor_list_value(outs);
    });
}

// Whether host code can run from the plugin here (custom Functions, hooks, checkpointing):
// the host gave callbacks when it opened the plugin.
SPL_TORCH_EXPORT bool rt_torch_host_callbacks_given(void) {
    return spl::guarded<bool>(__func__, [&] { return spl::host_callbacks_given(); });
}

} // extern "C"

SPL_EXTRA(rt_torch_host_callbacks_given)
SPL_EXTRA_RETURNS(rt_torch_function_apply, "[i64]", "name", "inputs", "outputs", "saved", "dirty", "non_differentiable",
                  "backward", "materialize_grads", "once_differentiable")
