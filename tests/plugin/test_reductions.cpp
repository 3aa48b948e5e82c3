// Reductions: whole-tensor and over dims, keepdim, dtype, correction.
#include "test_support.h"

#include <torch/version.h>

using namespace plugin_test;

namespace {
const c10::optional<at::Scalar> kCorrection0 = at::Scalar(0);
const c10::optional<at::Scalar> kCorrection2 = at::Scalar(2);
} // namespace

TEST_CASE_FIXTURE(LeakChecked, "sum with dtype omitted and given") {
    const Input x = input({2, 3, 4}, 21);
    expect_op("rt_torch_sum", {x.h}, at::sum(x.ref));                         // dtype omitted: float32
    expect_op("rt_torch_sum", {x.h, nil}, at::sum(x.ref));                    // dtype nil
    expect_op("rt_torch_sum", {x.h, "float64"}, at::sum(x.ref, at::kDouble)); // dtype given
    const Input i32 = upload(at::arange(6, at::kInt).reshape({2, 3}));
    expect_op("rt_torch_sum", {i32.h}, at::sum(i32.ref)); // integers sum to int64
}

TEST_CASE_FIXTURE(LeakChecked, "sum and mean over dims with keepdim") {
    const Input x = input({2, 3, 4}, 22);
    expect_op("rt_torch_sum_dim_IntList", {x.h, ints({1})}, at::sum(x.ref, at::IntArrayRef{1}));
    expect_op("rt_torch_sum_dim_IntList", {x.h, ints({0, 2}), true}, at::sum(x.ref, at::IntArrayRef{0, 2}, true));
    expect_op("rt_torch_sum_dim_IntList", {x.h, -1},
              at::sum(x.ref, at::IntArrayRef{-1})); // a bare int is a one-element list
    expect_op("rt_torch_sum_dim_IntList", {x.h, nil}, at::sum(x.ref, at::OptionalIntArrayRef{}));
    expect_op("rt_torch_sum_dim_IntList", {x.h, ints({1}), false, "float64"},
              at::sum(x.ref, at::IntArrayRef{1}, false, at::kDouble));
    expect_op("rt_torch_mean", {x.h}, at::mean(x.ref));
    expect_op("rt_torch_mean_dim", {x.h, ints({2})}, at::mean(x.ref, at::IntArrayRef{2}));
    expect_op("rt_torch_mean_dim", {x.h, ints({0, 1}), true}, at::mean(x.ref, at::IntArrayRef{0, 1}, true));
    expect_op("rt_torch_cumsum", {x.h, 1}, at::cumsum(x.ref, 1));
    expect_op("rt_torch_cumsum", {x.h, 2, "float64"}, at::cumsum(x.ref, 2, at::kDouble));
}

TEST_CASE_FIXTURE(LeakChecked, "max, amax, argmax and logsumexp") {
    const Input x = input({3, 5}, 23);
    expect_op("rt_torch_max", {x.h}, at::max(x.ref));
    expect_op("rt_torch_amax", {x.h}, at::amax(x.ref)); // dim defaults to [] = every dim
    expect_op("rt_torch_amax", {x.h, ints({1}), true}, at::amax(x.ref, {1}, true));
    expect_op("rt_torch_argmax", {x.h}, at::argmax(x.ref)); // over the flattened tensor
    expect_op("rt_torch_argmax", {x.h, 0}, at::argmax(x.ref, 0));
    expect_op("rt_torch_argmax", {x.h, 1, true}, at::argmax(x.ref, 1, true));
    expect_op("rt_torch_logsumexp", {x.h, ints({1})}, at::logsumexp(x.ref, {1}));
    expect_op("rt_torch_logsumexp", {x.h, ints({0}), true}, at::logsumexp(x.ref, {0}, true));
}

#if TORCH_VERSION_MAJOR >= 2
TEST_CASE_FIXTURE(LeakChecked, "std and var with correction") {
    const Input x = input({4, 6}, 24);
    expect_op("rt_torch_std_correction", {x.h}, at::std(x.ref, at::OptionalIntArrayRef{}, c10::nullopt, false));
    expect_op("rt_torch_std_correction", {x.h, ints({1}), 0, true}, at::std(x.ref, {1}, kCorrection0, true));
    expect_op("rt_torch_var_correction", {x.h, ints({0})}, at::var(x.ref, {0}, c10::nullopt, false));
    expect_op("rt_torch_var_correction", {x.h, ints({0, 1}), 2},
              at::var(x.ref, at::IntArrayRef{0, 1}, kCorrection2, false));
    expect_op("rt_torch_var_correction", {x.h, nil, 0.5},
              at::var(x.ref, at::OptionalIntArrayRef{}, c10::optional<at::Scalar>(0.5), false));
}
#else
// LibTorch 1.13 takes `int? correction` where 2.x takes `Scalar? correction`.
TEST_CASE_FIXTURE(LeakChecked, "std and var with correction (int correction on LibTorch 1.13)") {
    const Input x = input({3, 4}, 21);
    expect_op("rt_torch_std_correction", {x.h, ints({1}), 0, true},
              at::std(x.ref, at::IntArrayRef{1}, c10::optional<int64_t>(0), true));
    expect_op("rt_torch_var_correction", {x.h, ints({0, 1}), 2},
              at::var(x.ref, at::IntArrayRef{0, 1}, c10::optional<int64_t>(2), false));
    MESSAGE("skipped on LibTorch 1.13: a fractional correction (Scalar? correction is 2.x's signature)");
}
#endif

TEST_CASE_FIXTURE(LeakChecked, "prod, all and any") {
    const Input x = input({2, 3}, 25);
    expect_op("rt_torch_prod", {x.h}, at::prod(x.ref));
    expect_op("rt_torch_prod", {x.h, "float64"}, at::prod(x.ref, at::kDouble));
    expect_op("rt_torch_prod_dim_int", {x.h, 1}, at::prod(x.ref, 1));
    expect_op("rt_torch_prod_dim_int", {x.h, 0, true}, at::prod(x.ref, 0, true));

    const int64_t positive = op_handle("rt_torch_gt_Scalar", {x.h, 0});
    expect_same(positive, at::gt(x.ref, 0));
    expect_op("rt_torch_all", {positive}, at::all(at::gt(x.ref, 0)));
    expect_op("rt_torch_any", {positive}, at::any(at::gt(x.ref, 0)));
    expect_op("rt_torch_all_dim", {positive, 1, true}, at::all(at::gt(x.ref, 0), 1, true));
}
