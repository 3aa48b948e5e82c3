// The autograd graph as lib.torch's Node reads it (torch.autograd.graph.Node): a tensor's grad_fn,
// a node's name and its next_functions.
#include "core/autograd_compat.h"
#include "extras/extra_function.h"

#include <torch/csrc/autograd/function.h>

#include <memory>
#include <utility>

namespace {

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

} // namespace

extern "C" {

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

} // extern "C"

SPL_EXTRA(rt_torch_grad_fn, "t")
SPL_EXTRA(rt_torch_node_name, "node")
SPL_EXTRA_RETURNS(rt_torch_node_next_functions, "[i64]", "node")
