// Tensor hooks that run host code: Tensor.register_hook (LibTorch's hook list on the tensor)
// and Tensor.register_post_accumulate_grad_hook (after a leaf's .grad is accumulated).
#include "core/host_callbacks.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"
#include "extras/lent_handles.h"

#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <map>
#include <memory>

namespace {

using Callable = std::shared_ptr<const spl::HostCallable>;

// Runs `hook` with the tensor lent to it; what it gives back, a new tensor or none.
std::optional<at::Tensor> run_hook(const spl::HostCallable& hook, const at::Tensor& t, const char* purpose) {
    const spl::LentHandles lent({t});
    const SplValue arg = lent.item(0);
    return spl::take_tensor(hook.call(&arg, 1, purpose), std::string(purpose) + "'s result");
}

#if SPL_TORCH_AT_LEAST(2, 1)
// A leaf's post-accumulate-grad hooks: LibTorch keeps one object per tensor; this one holds
// every host hook registered on it, run in the order of registration.
class PostAccumulateHooks : public torch::autograd::PostAccumulateGradHook {
public:
    void operator()(const torch::autograd::Variable& tensor) override {
        for (const auto& [key, hook] : hooks) run_hook(*hook, tensor, "a post-accumulate-grad hook");
    }
    std::map<int64_t, Callable> hooks;
    int64_t next_key = 0;
};

PostAccumulateHooks& post_accumulate_hooks(const at::Tensor& t) {
    auto& slot = torch::autograd::impl::post_acc_grad_hooks(t);
    if (!slot) slot = std::make_unique<PostAccumulateHooks>();
    auto* ours = dynamic_cast<PostAccumulateHooks*>(slot.get());
    TORCH_CHECK(ours, "this tensor already has post-accumulate-grad hooks that are not lib.torch's");
    return *ours;
}
#endif

} // namespace

extern "C" {

// Tensor.register_hook: `hook` takes the gradient (a borrowed handle) and returns nil to keep
// it or a new handle to replace it. Returns the key for rt_torch_remove_hook.
SPL_TORCH_EXPORT int64_t rt_torch_register_hook(int64_t t, SplValue hook) {
    return spl::guarded<int64_t>(__func__, [&] {
        const at::Tensor& tensor = spl::tensor(t, "tensor");
        TORCH_CHECK(tensor.requires_grad(), "cannot register a hook on a tensor that doesn't require gradient");
        Callable callable = std::make_shared<const spl::HostCallable>(hook, "hook");
        return static_cast<int64_t>(tensor.register_hook([callable](const at::Tensor& grad) -> at::Tensor {
            return run_hook(*callable, grad, "a tensor hook").value_or(at::Tensor());
        }));
    });
}

SPL_TORCH_EXPORT void rt_torch_remove_hook(int64_t t, int64_t key) {
    spl::guarded<void>(__func__, [&] {
        TORCH_CHECK(key >= 0, "remove_hook: no hook has key ", key);
        spl::tensor(t, "tensor").remove_hook(static_cast<unsigned>(key));
    });
}

// Tensor.register_post_accumulate_grad_hook: `hook` takes the tensor itself (borrowed), after
// its .grad was accumulated; its result is ignored. Returns the key for
// rt_torch_remove_post_accumulate_grad_hook.
SPL_TORCH_EXPORT int64_t rt_torch_register_post_accumulate_grad_hook(int64_t t, SplValue hook) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
        const at::Tensor& tensor = spl::tensor(t, "tensor");
        TORCH_CHECK(tensor.requires_grad(), "cannot register a hook on a tensor that doesn't require gradient");
        TORCH_CHECK(tensor.is_leaf(), "post accumulate grad hooks cannot be registered on non-leaf tensors");
#if SPL_TORCH_AT_LEAST(2, 1)
        Callable callable = std::make_shared<const spl::HostCallable>(hook, "hook");
        PostAccumulateHooks& hooks = post_accumulate_hooks(tensor);
        hooks.hooks.emplace(hooks.next_key, std::move(callable));
        return hooks.next_key++;
#else
        throw spl::SplError("post-accumulate-grad hooks need LibTorch 2.1 or later, and this is " TORCH_VERSION);
#endif
    });
}

SPL_TORCH_EXPORT void rt_torch_remove_post_accumulate_grad_hook(int64_t t, int64_t key) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_AT_LEAST(2, 1)
        post_accumulate_hooks(spl::tensor(t, "tensor")).hooks.erase(key);
#else
        throw spl::SplError("post-accumulate-grad hooks need LibTorch 2.1 or later, and this is " TORCH_VERSION);
#endif
    });
}

// A new handle to the same tensor (not a copy, not a view): for a tensor lent to host code
// that the host keeps.
SPL_TORCH_EXPORT int64_t rt_torch_share(int64_t t) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::new_handle(spl::tensor(t, "tensor")); });
}

} // extern "C"

SPL_EXTRA(rt_torch_register_hook, "t", "hook")
SPL_EXTRA(rt_torch_remove_hook, "t", "key")
SPL_EXTRA(rt_torch_register_post_accumulate_grad_hook, "t", "hook")
SPL_EXTRA(rt_torch_remove_post_accumulate_grad_hook, "t", "key")
SPL_EXTRA(rt_torch_share, "t")
