// GPU checks of the plugin, through the ABI as a host uses it, against ATen
// called directly on the same GPU. Without a CUDA device the whole program
// reports "skipped" (exit 77, meson's skip code), as it does in CI.
#include "../plugin/test_support.h"

#include <ATen/Context.h>

using namespace plugin_test;

namespace {

const char* kCuda = "cuda:0";

// A plugin tensor on the GPU with the values of `ref` (float32).
int64_t on_gpu(const Input& in) { return op_handle("rt_torch_to_device", {in.h, kCuda, "float32", false, false, nil}); }

} // namespace

TEST_CASE("CUDA is visible through the plugin, and libtorch_cuda really loaded") {
    CHECK(op("rt_torch_cuda_is_available", {}).as_bool());
    CHECK(op("rt_torch_cuda_device_count", {}).as_i64() == int64_t(at::getNumGPUs()));
}

TEST_CASE_FIXTURE(LeakChecked, "factories, matmul and reductions on the GPU match ATen on the GPU") {
    const Input a = input({64, 32}, 3), b = input({32, 16}, 4);
    const int64_t ga = on_gpu(a), gb = on_gpu(b);
    CHECK(op("rt_torch_device", {ga}).as_text() == "cuda:0");
    const int64_t prod = op_handle("rt_torch_matmul", {ga, gb});
    CHECK(op("rt_torch_device", {prod}).as_text() == "cuda:0");
    // The reference makes the same calls on the same GPU in the same process (one TF32
    // setting for both), so the values are the same bits.
    const at::Tensor expected = at::matmul(a.ref.cuda(), b.ref.cuda());
    expect_same(prod, expected.cpu());
    const int64_t sums = op_handle("rt_torch_sum_dim_IntList", {prod, ints({1}), true});
    expect_same(sums, expected.sum({1}, true).cpu()); // summed on the GPU, as the plugin does
    const int64_t z = op_handle("rt_torch_zeros", {ints({3, 4}), "float64", nil, kCuda});
    CHECK(op("rt_torch_device", {z}).as_text() == "cuda:0");
    expect_same(z, at::zeros({3, 4}, at::kDouble));
}

TEST_CASE_FIXTURE(LeakChecked, "autograd on the GPU: grad of (x*x).sum() is 2x, on the GPU") {
    const Input x = input({5, 7}, 9);
    const int64_t gx = op_handle("rt_torch_to_device", {x.h, kCuda, "float32", false, true, nil});
    op("rt_torch_requires_grad_", {gx, true});
    const int64_t sq = op_handle("rt_torch_mul_Tensor", {gx, gx});
    const int64_t y = op_handle("rt_torch_sum", {sq});
    op("rt_torch_backward", {y, 0, false, false});
    const int64_t g = op_handle("rt_torch_grad", {gx});
    CHECK(op("rt_torch_device", {g}).as_text() == "cuda:0");
    expect_same(g, x.ref * 2); // x + x, as mul's backward accumulates it, is 2x exactly
}

TEST_CASE_FIXTURE(LeakChecked, "mixing devices is LibTorch's error, reported, and the process carries on") {
    const Input a = input({4}, 1);
    const int64_t ga = on_gpu(a);
    const Outcome bad = try_op("rt_torch_add_Tensor", {ga, a.h});
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.find("same device") != std::string::npos);
    expect_op("rt_torch_add_Tensor", {ga, ga}, a.ref * 2);
}
