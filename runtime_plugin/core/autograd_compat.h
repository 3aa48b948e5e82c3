// How LibTorch holds autograd nodes: std::shared_ptr up to 2.x, c10::intrusive_ptr since.
// Everything that makes, keeps or passes a node goes through these names.
#pragma once

#include "core/libtorch_compat.h"

#include <torch/csrc/autograd/function.h>

#include <type_traits>
#include <utility>

namespace spl::compat {

using NodePtr = std::decay_t<decltype(std::declval<const at::Tensor&>().grad_fn())>;

template <class T, class... Args>
auto make_node(Args&&... args) {
    if constexpr (std::is_same_v<NodePtr, std::shared_ptr<torch::autograd::Node>>)
        return std::make_shared<T>(std::forward<Args>(args)...);
    else
        return c10::make_intrusive<T>(std::forward<Args>(args)...);
}

// A node's own owning pointer, from inside it (SavedVariable::unpack wants it for saved outputs).
// (A template, so that only the branch of this LibTorch is compiled.)
template <class N>
NodePtr self_ptr(N& node) {
    if constexpr (std::is_same_v<NodePtr, std::shared_ptr<torch::autograd::Node>>)
        return node.shared_from_this();
    else
        return node.getptr();
}

} // namespace spl::compat
