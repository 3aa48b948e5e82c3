// Autograd through handles, no_grad regions, and views sharing storage.
#include "test_support.h"

using namespace plugin_test;

namespace {

bool requires_grad(int64_t h) { return plugin().runtime("rt_torch_requires_grad", {h}).as_bool(); }
bool shares_storage(int64_t a, int64_t b) { return plugin().runtime("rt_torch_shares_storage", {a, b}).as_bool(); }
void backward(int64_t y, bool retain_graph) { plugin().runtime("rt_torch_backward", {y, 0, retain_graph, false}); }
int64_t grad(int64_t x) { return plugin().runtime("rt_torch_grad", {x}).as_i64(); }

// y = (x * x).sum() through the plugin.
int64_t sum_of_squares(int64_t x) { return op_handle("rt_torch_sum", {op_handle("rt_torch_mul_Tensor", {x, x})}); }

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "backward of (x*x).sum() gives 2x") {
    const Input x = upload(at::tensor({1.0, -2.0, 3.5, 0.25}, at::kFloat).reshape({2, 2}), /*requires_grad=*/true);
    CHECK(requires_grad(x.h));
    CHECK(grad(x.h) == 0); // no gradient yet: None

    const int64_t y = sum_of_squares(x.h);
    CHECK(requires_grad(y));
    backward(y, false);
    expect_same(grad(x.h), 2 * x.ref);
    // The graph was freed: a second backward fails with LibTorch's message, and the process carries on.
    expect_error(plugin().try_runtime("rt_torch_backward", {y, 0, false, false}), {"second time"});

    plugin().runtime("rt_torch_zero_grad", {x.h});
    CHECK(grad(x.h) == 0);

    // LibTorch refuses an in-place change of a leaf that requires grad.
    const std::string message = aten_error([&] { x.ref.detach().clone().requires_grad_(true).add_(1); });
    expect_error(try_op("rt_torch_add__Scalar", {x.h, 1}), {message});
}

TEST_CASE_FIXTURE(LeakChecked, "retain_graph allows a second backward and gradients accumulate") {
    const Input x = upload(at::tensor({0.5, 1.5, -1.0}, at::kFloat), /*requires_grad=*/true);
    const int64_t y = sum_of_squares(x.h);
    backward(y, true);
    expect_same(grad(x.h), 2 * x.ref);
    backward(y, true);
    expect_same(grad(x.h), 4 * x.ref);
}

TEST_CASE_FIXTURE(LeakChecked, "backward of a non-scalar output needs an explicit gradient") {
    const Input x = upload(at::tensor({1.0, 2.0, -3.0}, at::kFloat), /*requires_grad=*/true);
    const Input weights = upload(at::tensor({1.0, 0.5, 2.0}, at::kFloat));
    const int64_t squares = op_handle("rt_torch_mul_Tensor", {x.h, x.h});

    const std::string message = aten_error([&] { x.ref.detach().requires_grad_(true).mul(x.ref).backward(); });
    expect_error(plugin().try_runtime("rt_torch_backward", {squares, 0, false, false}), {message});

    plugin().runtime("rt_torch_backward", {squares, weights.h, false, false});
    expect_same(grad(x.h), 2 * x.ref * weights.ref);
}

TEST_CASE_FIXTURE(LeakChecked, "gradients through several operators match ATen autograd") {
    const at::Tensor x_ref = sample({3, 4}, 91).requires_grad_(true);
    const at::Tensor w_ref = sample({4, 2}, 92);
    const Input x = upload(x_ref, true), w = upload(w_ref);

    const int64_t h = op_handle("rt_torch_tanh", {op_handle("rt_torch_mm", {x.h, w.h})});
    const int64_t loss = op_handle("rt_torch_mean", {op_handle("rt_torch_sigmoid", {h})});
    backward(loss, false);

    at::sigmoid(at::tanh(at::mm(x_ref, w_ref))).mean().backward();
    expect_same(grad(x.h), x_ref.grad());
}

TEST_CASE_FIXTURE(LeakChecked, "no_grad regions") {
    const Input x = upload(at::ones({3}), /*requires_grad=*/true);
    CHECK(plugin().runtime("rt_torch_is_grad_enabled").as_bool());

    const bool previous = plugin().runtime("rt_torch_no_grad_enter").as_bool();
    CHECK(previous);
    CHECK_FALSE(plugin().runtime("rt_torch_is_grad_enabled").as_bool());
    const int64_t inside = op_handle("rt_torch_mul_Scalar", {x.h, 2});
    plugin().runtime("rt_torch_no_grad_exit", {previous});

    CHECK_FALSE(requires_grad(inside));
    CHECK(plugin().runtime("rt_torch_is_grad_enabled").as_bool());
    CHECK(requires_grad(op_handle("rt_torch_mul_Scalar", {x.h, 2})));
}

TEST_CASE_FIXTURE(LeakChecked, "views share storage with their base") {
    const Input base = input({3, 4}, 93);
    const int64_t view = op_handle("rt_torch_view", {base.h, ints({12})});
    const int64_t transposed = op_handle("rt_torch_transpose_int", {base.h, 0, 1});
    const int64_t row = op_handle("rt_torch_select_int", {base.h, 0, 1});
    const int64_t detached = op_handle("rt_torch_detach", {base.h});
    const int64_t copy = op_handle("rt_torch_aten_clone", {base.h});
    CHECK(shares_storage(base.h, view));
    CHECK(shares_storage(base.h, transposed));
    CHECK(shares_storage(base.h, row));
    CHECK(shares_storage(base.h, detached));
    CHECK_FALSE(shares_storage(base.h, copy));
    CHECK_FALSE(shares_storage(base.h, op_handle("rt_torch_contiguous", {transposed})));

    // Mutating a view in place changes the base, and the other views.
    at::Tensor expected = base.ref.clone();
    CHECK(op_handle("rt_torch_mul__Scalar", {row, 10}) == row);
    expected.select(0, 1).mul_(10);
    expect_same(base.h, expected);
    expect_same(transposed, expected.t());
    CHECK(op_handle("rt_torch_exp_", {transposed}) == transposed);
    expected.exp_();
    expect_same(view, expected.view({12}));
    expect_same(copy, base.ref); // the clone kept the old values
}
