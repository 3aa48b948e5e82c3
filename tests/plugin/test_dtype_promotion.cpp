// Type promotion (int versus float Scalars), dtype conversion, factories and
// seeded random numbers.
#include "test_support.h"

#include <ATen/CPUGeneratorImpl.h>

using namespace plugin_test;

namespace {

void expect_dtype(int64_t handle, const char* name) { CHECK(dtype_of_handle(handle) == name); }

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "an int Scalar keeps integer tensors integral, a float Scalar promotes") {
    const Input i64 = upload(at::arange(-3, 3, at::kLong).reshape({2, 3}));

    const int64_t plus_int = op_handle("rt_torch_add_Scalar", {i64.h, 2}); // SPL_I64 2
    expect_dtype(plus_int, "int64");
    expect_same(plus_int, at::add(i64.ref, at::Scalar(int64_t{2})));

    const int64_t plus_float = op_handle("rt_torch_add_Scalar", {i64.h, 2.0}); // SPL_F64 2.0
    expect_dtype(plus_float, "float32");
    expect_same(plus_float, at::add(i64.ref, at::Scalar(2.0)));

    expect_op("rt_torch_mul_Scalar", {i64.h, 3}, at::mul(i64.ref, at::Scalar(int64_t{3})));
    expect_op("rt_torch_mul_Scalar", {i64.h, 0.5}, at::mul(i64.ref, at::Scalar(0.5)));
    expect_op("rt_torch_pow_Tensor_Scalar", {i64.h, 2}, at::pow(i64.ref, at::Scalar(int64_t{2})));

    const Input i32 = upload(at::arange(4, at::kInt));
    expect_op("rt_torch_add_Scalar", {i32.h, 7}, at::add(i32.ref, at::Scalar(int64_t{7}))); // stays int32
}

TEST_CASE_FIXTURE(LeakChecked, "tensor-tensor promotion") {
    const Input i64 = upload(at::arange(6, at::kLong).reshape({2, 3}));
    const Input i32 = upload(at::arange(1, 4, at::kInt));
    const Input f32 = input({3}, 81);
    const Input f64 = input({3}, 82, at::kDouble);
    const Input flags = upload(at::tensor({1, 0, 1}, at::kByte).to(at::kBool));

    expect_op("rt_torch_add_Tensor", {i64.h, f32.h}, at::add(i64.ref, f32.ref));     // float32
    expect_op("rt_torch_add_Tensor", {i64.h, i32.h}, at::add(i64.ref, i32.ref));     // int64
    expect_op("rt_torch_add_Tensor", {f32.h, f64.h}, at::add(f32.ref, f64.ref));     // float64
    expect_op("rt_torch_add_Tensor", {flags.h, i32.h}, at::add(flags.ref, i32.ref)); // int32
    expect_op("rt_torch_div_Tensor", {i64.h, i32.h}, at::div(i64.ref, i32.ref));     // true division
    expect_op("rt_torch_eq_Tensor", {i32.h, i32.h}, at::eq(i32.ref, i32.ref));       // bool
}

TEST_CASE_FIXTURE(LeakChecked, "to.dtype float32 -> int64 -> float64") {
    const Input x = upload(at::tensor({-1.7, -0.2, 0.0, 2.5, 3.9, 100.25}, at::kFloat).reshape({2, 3}));
    const int64_t as_int = op_handle("rt_torch_to_dtype", {x.h, "int64"});
    expect_dtype(as_int, "int64");
    expect_same(as_int, x.ref.to(at::kLong)); // truncation toward zero
    CHECK(plugin().runtime("rt_torch_to_i64_list", {as_int}).as_i64_list() ==
          std::vector<int64_t>{-1, 0, 0, 2, 3, 100});

    const int64_t back = op_handle("rt_torch_to_dtype", {as_int, "float64"});
    expect_dtype(back, "float64");
    expect_same(back, x.ref.to(at::kLong).to(at::kDouble));

    expect_op("rt_torch_to_dtype", {x.h, "float16"}, x.ref.to(at::kHalf));
    expect_op("rt_torch_to_dtype", {x.h, "bool"}, x.ref.to(at::kBool));
    expect_op("rt_torch_to_dtype", {x.h, "double", false, true}, x.ref.to(at::kDouble)); // alias, copy=true
}

TEST_CASE_FIXTURE(LeakChecked, "factories") {
    expect_op("rt_torch_zeros", {ints({2, 3})}, at::zeros({2, 3}));
    expect_op("rt_torch_zeros", {ints({2}), "int64"}, at::zeros({2}, at::kLong));
    expect_op("rt_torch_ones", {ints({3, 1}), "float64"}, at::ones({3, 1}, at::kDouble));
    expect_op("rt_torch_ones", {ints({2}), nil, nil, "cpu"}, at::ones({2}));
    expect_op("rt_torch_full", {ints({2, 2}), 7}, at::full({2, 2}, at::Scalar(int64_t{7}))); // int64 inferred
    expect_op("rt_torch_full", {ints({2, 2}), 7.5}, at::full({2, 2}, 7.5));
    expect_op("rt_torch_full", {ints({2}), 1, "float16"}, at::full({2}, 1, at::kHalf));
    expect_op("rt_torch_arange", {5}, at::arange(5));                 // int64
    expect_op("rt_torch_arange", {5.0}, at::arange(at::Scalar(5.0))); // float32
    expect_op("rt_torch_arange", {4, "float64"}, at::arange(4, at::kDouble));
    expect_op("rt_torch_arange_start_step", {1, 3, 0.5}, at::arange(1, 3, 0.5));
    expect_op("rt_torch_arange_start_step", {10, 0, -3, "int32"}, at::arange(10, 0, -3, at::kInt));
    expect_op("rt_torch_eye", {3}, at::eye(3));
    expect_op("rt_torch_eye", {2, "int64"}, at::eye(2, at::kLong));
    expect_op("rt_torch_linspace", {0, 1, 5}, at::linspace(0, 1, 5));
    expect_op("rt_torch_linspace", {-1.5, 2.5, 9, "float64"}, at::linspace(-1.5, 2.5, 9, at::kDouble));
}

TEST_CASE_FIXTURE(LeakChecked, "random numbers from a seeded generator") {
    const int64_t first = op_handle("rt_torch_randn_generator", {ints({3, 4}), 7});
    const int64_t second = op_handle("rt_torch_randn_generator", {ints({3, 4}), 7});
    const int64_t other = op_handle("rt_torch_randn_generator", {ints({3, 4}), 8});
    CHECK(at::equal(to_aten(first), to_aten(second)));
    CHECK_FALSE(at::equal(to_aten(first), to_aten(other)));
    expect_same(first, at::randn({3, 4}, at::make_generator<at::CPUGeneratorImpl>(7)));

    expect_op("rt_torch_rand_generator", {ints({5}), 3, "float64"},
              at::rand({5}, at::make_generator<at::CPUGeneratorImpl>(3), at::kDouble));

    const Input target = upload(at::zeros({6}));
    CHECK(op_handle("rt_torch_normal_", {target.h, 1.0, 0.5, 11}) == target.h);
    expect_same(target.h, at::zeros({6}).normal_(1.0, 0.5, at::make_generator<at::CPUGeneratorImpl>(11)));

    // Without a generator: the default one, seeded through the plugin.
    plugin().runtime("rt_torch_manual_seed", {123});
    const int64_t seeded = op_handle("rt_torch_randn", {ints({4})});
    at::manual_seed(123);
    expect_same(seeded, at::randn({4}));
}
