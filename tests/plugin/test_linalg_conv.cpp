// Matrix products, convolution, pooling, normalisation and softmax.
#include "test_support.h"

using namespace plugin_test;

TEST_CASE_FIXTURE(LeakChecked, "matmul, mm, bmm and friends") {
    const Input a = input({2, 3}, 31), b = input({3, 4}, 32);
    const Input batch = input({5, 2, 3}, 33), batch2 = input({5, 3, 4}, 34);
    const Input v = input({3}, 35), bias = input({4}, 36);

    expect_op("rt_torch_matmul", {a.h, b.h}, at::matmul(a.ref, b.ref));
    expect_op("rt_torch_matmul", {batch.h, b.h}, at::matmul(batch.ref, b.ref)); // batch broadcast
    expect_op("rt_torch_matmul", {a.h, v.h}, at::matmul(a.ref, v.ref));         // matrix @ vector
    expect_op("rt_torch_mm", {a.h, b.h}, at::mm(a.ref, b.ref));
    expect_op("rt_torch_bmm", {batch.h, batch2.h}, at::bmm(batch.ref, batch2.ref));
    expect_op("rt_torch_addmm", {bias.h, a.h, b.h, 0.5, 2}, at::addmm(bias.ref, a.ref, b.ref, 0.5, 2));
    expect_op("rt_torch_t", {a.h}, at::t(a.ref));
    expect_op("rt_torch_einsum", {"ij,jk->ik", list({a.h, b.h})}, at::einsum("ij,jk->ik", {a.ref, b.ref}));
}

TEST_CASE_FIXTURE(LeakChecked, "linear with and without bias") {
    const Input x = input({4, 3}, 37), w = input({2, 3}, 38), bias = input({2}, 39);
    expect_op("rt_torch_linear", {x.h, w.h, bias.h}, at::linear(x.ref, w.ref, bias.ref));
    expect_op("rt_torch_linear", {x.h, w.h}, at::linear(x.ref, w.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "conv2d with and without bias, stride and padding") {
    const Input x = input({2, 2, 6, 5}, 41), w = input({3, 2, 3, 3}, 42), bias = input({3}, 43);
    // Everything after the weight omitted: no bias, stride 1, padding 0.
    expect_op("rt_torch_conv2d", {x.h, w.h}, at::conv2d(x.ref, w.ref));
    expect_op("rt_torch_conv2d", {x.h, w.h, bias.h}, at::conv2d(x.ref, w.ref, bias.ref));
    expect_op("rt_torch_conv2d", {x.h, w.h, bias.h, ints({2, 1}), ints({1, 2})},
              at::conv2d(x.ref, w.ref, bias.ref, {2, 1}, {1, 2}));
    // bias given as nil (None), dilation and groups given.
    const Input wg = input({4, 1, 2, 2}, 44);
    expect_op("rt_torch_conv2d", {x.h, wg.h, nil, ints({1, 1}), ints({0, 0}), ints({2, 1}), 2},
              at::conv2d(x.ref, wg.ref, c10::nullopt, {1, 1}, at::IntArrayRef{0, 0}, {2, 1}, 2));
}

TEST_CASE_FIXTURE(LeakChecked, "pooling and layer_norm") {
    const Input x = input({1, 2, 6, 6}, 45);
    expect_op("rt_torch_max_pool2d", {x.h, ints({2, 2})}, at::max_pool2d(x.ref, {2, 2}));
    expect_op("rt_torch_avg_pool2d", {x.h, ints({3, 3}), ints({2, 2}), ints({1, 1})},
              at::avg_pool2d(x.ref, {3, 3}, {2, 2}, {1, 1}));
    const Input y = input({3, 4}, 46), gamma = input({4}, 47), beta = input({4}, 48);
    expect_op("rt_torch_layer_norm", {y.h, ints({4})}, at::layer_norm(y.ref, {4}));
    expect_op("rt_torch_layer_norm", {y.h, ints({4}), gamma.h, beta.h, 1e-3},
              at::layer_norm(y.ref, {4}, gamma.ref, beta.ref, 1e-3));
}

TEST_CASE_FIXTURE(LeakChecked, "softmax and log_softmax") {
    const Input x = input({3, 5}, 49);
    expect_op("rt_torch_softmax_int", {x.h, 1}, at::softmax(x.ref, 1));
    expect_op("rt_torch_softmax_int", {x.h, 0, "float64"}, at::softmax(x.ref, 0, at::kDouble));
    expect_op("rt_torch_log_softmax_int", {x.h, -1}, at::log_softmax(x.ref, -1));
    expect_op("rt_torch_log_softmax_int", {x.h, 0, nil}, at::log_softmax(x.ref, 0));
}

// A bare int for `int[2] output_size` must reach ATen as [3, 3]: ops that do
// not expand one-element lists themselves (adaptive_avg_pool2d, im2col) show it.
TEST_CASE_FIXTURE(LeakChecked, "a bare int for a sized list (int[2]) stands for every element, as in PyTorch") {
    const Input x = input({1, 2, 6, 6}, 50);
    // ATen itself expands a one-element list for these ...
    expect_op("rt_torch_max_pool2d", {x.h, 2}, at::max_pool2d(x.ref, {2, 2}));
    expect_op("rt_torch_conv2d", {x.h, input({3, 2, 3, 3}, 51).h, nil, 2, 1},
              at::conv2d(x.ref, sample({3, 2, 3, 3}, 51), c10::nullopt, {2, 2}, {1, 1}));
    // ... but not for these: torch.nn.functional.adaptive_avg_pool2d(x, 3) means (3, 3).
    expect_op("rt_torch_im2col", {x.h, 2, 1, 0, 1}, at::im2col(x.ref, {2, 2}, {1, 1}, {0, 0}, {1, 1}));
    expect_op("rt_torch_adaptive_avg_pool2d", {x.h, 3}, at::adaptive_avg_pool2d(x.ref, {3, 3}));
}
