// How LibTorch holds autograd nodes: std::shared_ptr up to 2.x, c10::intrusive_ptr since.
// Everything that makes, keeps or passes a node goes through these names. Also the autograd
// state a LibTorch may lack (gradient layout enforcement).
#pragma once

#include "core/libtorch_compat.h"

#include <c10/core/AutogradState.h>
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

// The autograd state's gradient-layout enforcement (torch.autograd.enforce_grad_layout_policy),
// found by its accessors: a LibTorch without them has none, and nothing to switch.
template <class State>
constexpr auto has_grad_layout_enforcement(State* s) -> decltype(s->get_grad_layout_enforcement_enabled(), true) {
    return true;
}
constexpr bool has_grad_layout_enforcement(...) { return false; }

// Sets this thread's enforcement and returns the previous setting; `supported` says whether the
// LibTorch has one (when it has none, nothing changes and true, its fixed behaviour, comes back).
template <class State = c10::AutogradState>
bool set_grad_layout_enforcement(bool enabled, bool& supported) {
    supported = has_grad_layout_enforcement(static_cast<State*>(nullptr));
    if constexpr (has_grad_layout_enforcement(static_cast<State*>(nullptr))) {
        State& state = State::get_tls_state();
        const bool previous = state.get_grad_layout_enforcement_enabled();
        state.set_grad_layout_enforcement_enabled(enabled);
        return previous;
    } else {
        return true;
    }
}

// This thread's enforcement; true (the fixed behaviour) where the LibTorch has none.
template <class State = c10::AutogradState>
bool grad_layout_enforcement() {
    if constexpr (has_grad_layout_enforcement(static_cast<State*>(nullptr)))
        return State::get_tls_state().get_grad_layout_enforcement_enabled();
    else
        return true;
}

} // namespace spl::compat
