// Dimname arguments: named tensors exist in LibTorch 1.x (2.x removed them,
// so there these cases skip by name).
#include "test_support.h"

#include <torch/version.h>

using namespace plugin_test;

TEST_CASE_FIXTURE(LeakChecked, "Dimname lists name dimensions, and reductions take them") {
    SKIP_UNLESS_OP("rt_torch_refine_names")
#if TORCH_VERSION_MAJOR < 2
    const Input x = input({2, 3}, 81);
    const int64_t named = op_handle("rt_torch_refine_names", {x.h, list({"rows", "cols"})});
    const at::Tensor reference = x.ref.refine_names(
        {at::Dimname::fromSymbol(at::Symbol::dimname("rows")), at::Dimname::fromSymbol(at::Symbol::dimname("cols"))});
    const int64_t summed = op_handle("rt_torch_sum_dim_DimnameList", {named, list({"cols"})});
    expect_same(summed, reference.sum({at::Dimname::fromSymbol(at::Symbol::dimname("cols"))}).rename(c10::nullopt));
#endif
}
