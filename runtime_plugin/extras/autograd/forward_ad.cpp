// Forward-mode AD (torch.autograd.forward_ad): LibTorch's dual levels and unpack_dual.
#include "extras/extra_function.h"

#include <ATen/ops/_unpack_dual.h>
#include <torch/csrc/autograd/forward_grad.h>

extern "C" {

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

} // extern "C"

SPL_EXTRA(rt_torch_enter_dual_level)
SPL_EXTRA(rt_torch_exit_dual_level, "level")
SPL_EXTRA_RETURNS(rt_torch_unpack_dual, "[i64]", "t", "level")
