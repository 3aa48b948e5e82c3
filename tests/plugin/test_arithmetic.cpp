// Elementwise arithmetic with broadcasting, unary math and clamping.
#include "test_support.h"

#include <functional>

using namespace plugin_test;

TEST_CASE_FIXTURE(LeakChecked, "binary arithmetic broadcasts like ATen") {
    const Input a = input({2, 3}, 1), row = input({3}, 2), col = input({2, 1}, 3);
    const Input c = input({4, 1, 3}, 4);

    expect_op("rt_torch_add_Tensor", {a.h, row.h}, at::add(a.ref, row.ref));
    expect_op("rt_torch_add_Tensor", {a.h, col.h, 2.5}, at::add(a.ref, col.ref, 2.5)); // alpha given
    expect_op("rt_torch_sub_Tensor", {c.h, a.h}, at::sub(c.ref, a.ref));               // -> [4, 2, 3]
    expect_op("rt_torch_sub_Tensor", {c.h, a.h, 3}, at::sub(c.ref, a.ref, 3));
    expect_op("rt_torch_mul_Tensor", {col.h, row.h}, at::mul(col.ref, row.ref)); // outer product by broadcast
    expect_op("rt_torch_div_Tensor", {a.h, row.h}, at::div(a.ref, row.ref));
    expect_op("rt_torch_div_Tensor_mode", {a.h, col.h, "floor"}, at::div(a.ref, col.ref, "floor"));
    expect_op("rt_torch_div_Tensor_mode", {a.h, col.h, nil}, at::div(a.ref, col.ref, c10::nullopt));
    expect_op("rt_torch_maximum", {a.h, row.h}, at::maximum(a.ref, row.ref));
    expect_op("rt_torch_minimum", {c.h, col.h}, at::minimum(c.ref, col.ref));
    expect_op("rt_torch_atan2", {a.h, row.h}, at::atan2(a.ref, row.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "scalar operands and powers") {
    const Input a = input({3, 4}, 5);
    const Input positive = upload(sample({3, 4}, 6).abs() + 0.5);
    const Input exponent = upload(at::linspace(-1.0, 2.0, 4).to(at::kFloat));

    expect_op("rt_torch_add_Scalar", {a.h, 1.5}, at::add(a.ref, 1.5));
    expect_op("rt_torch_add_Scalar", {a.h, 2, 3}, at::add(a.ref, 2, 3)); // other and alpha as integers
    expect_op("rt_torch_mul_Scalar", {a.h, -0.25}, at::mul(a.ref, -0.25));
    expect_op("rt_torch_pow_Tensor_Scalar", {a.h, 2}, at::pow(a.ref, 2));
    expect_op("rt_torch_pow_Tensor_Scalar", {positive.h, 0.5}, at::pow(positive.ref, 0.5));
    expect_op("rt_torch_pow_Tensor_Tensor", {positive.h, exponent.h}, at::pow(positive.ref, exponent.ref));
    expect_op("rt_torch_fmod_Scalar", {a.h, 0.75}, at::fmod(a.ref, 0.75));
    expect_op("rt_torch_remainder_Scalar", {a.h, 0.75}, at::remainder(a.ref, 0.75));
}

TEST_CASE_FIXTURE(LeakChecked, "unary math functions") {
    const Input any = input({2, 5}, 7);
    const Input positive = upload(sample({2, 5}, 8).abs() + 0.1);

    struct Unary {
        const char* name;
        std::function<at::Tensor(const at::Tensor&)> reference;
        bool needs_positive;
    };
    const Unary cases[] = {
        {"rt_torch_neg", [](const at::Tensor& t) { return at::neg(t); }, false},
        {"rt_torch_abs", [](const at::Tensor& t) { return at::abs(t); }, false},
        {"rt_torch_exp", [](const at::Tensor& t) { return at::exp(t); }, false},
        {"rt_torch_log", [](const at::Tensor& t) { return at::log(t); }, true},
        {"rt_torch_sqrt", [](const at::Tensor& t) { return at::sqrt(t); }, true},
        {"rt_torch_rsqrt", [](const at::Tensor& t) { return at::rsqrt(t); }, true},
        {"rt_torch_sin", [](const at::Tensor& t) { return at::sin(t); }, false},
        {"rt_torch_cos", [](const at::Tensor& t) { return at::cos(t); }, false},
        {"rt_torch_tanh", [](const at::Tensor& t) { return at::tanh(t); }, false},
        {"rt_torch_sigmoid", [](const at::Tensor& t) { return at::sigmoid(t); }, false},
        {"rt_torch_relu", [](const at::Tensor& t) { return at::relu(t); }, false},
        {"rt_torch_floor", [](const at::Tensor& t) { return at::floor(t); }, false},
        {"rt_torch_round", [](const at::Tensor& t) { return at::round(t); }, false},
        {"rt_torch_sign", [](const at::Tensor& t) { return at::sign(t); }, false},
    };
    for (const Unary& u : cases) {
        const Input& x = u.needs_positive ? positive : any;
        expect_op(u.name, {x.h}, u.reference(x.ref));
    }
}

TEST_CASE_FIXTURE(LeakChecked, "clamp with optional bounds") {
    const Input a = input({3, 3}, 9);
    expect_op("rt_torch_clamp", {a.h, -0.5}, at::clamp(a.ref, -0.5));                    // min only, max omitted
    expect_op("rt_torch_clamp", {a.h, -0.5, nil}, at::clamp(a.ref, -0.5, c10::nullopt)); // max given as nil
    expect_op("rt_torch_clamp", {a.h, nil, 0.25}, at::clamp(a.ref, c10::nullopt, 0.25)); // max only
    expect_op("rt_torch_clamp", {a.h, -1, 1}, at::clamp(a.ref, -1, 1));                  // integer bounds
    expect_op("rt_torch_clamp_min", {a.h, 0.0}, at::clamp_min(a.ref, 0.0));
}
