// Shape operators: reshape, view, permute, transpose, (un)squeeze, flatten,
// expand, contiguous.
#include "test_support.h"

using namespace plugin_test;

TEST_CASE_FIXTURE(LeakChecked, "reshape, view, permute and transpose") {
    const Input x = input({2, 3, 4}, 61);
    expect_op("rt_torch_reshape", {x.h, ints({4, -1})}, x.ref.reshape({4, -1}));
    expect_op("rt_torch_view", {x.h, ints({6, 4})}, x.ref.view({6, 4}));
    expect_op("rt_torch_view", {x.h, ints({-1})}, x.ref.view({-1}));
    expect_op("rt_torch_permute", {x.h, ints({2, 0, 1})}, x.ref.permute({2, 0, 1}));
    expect_op("rt_torch_transpose_int", {x.h, 0, 2}, x.ref.transpose(0, 2));
    expect_op("rt_torch_transpose_int", {x.h, -1, -2}, x.ref.transpose(-1, -2));
}

TEST_CASE_FIXTURE(LeakChecked, "squeeze, unsqueeze and flatten") {
    const Input x = input({1, 3, 1, 2}, 62);
    expect_op("rt_torch_squeeze", {x.h}, x.ref.squeeze());
    expect_op("rt_torch_squeeze_dim", {x.h, 2}, x.ref.squeeze(2));
    expect_op("rt_torch_squeeze_dim", {x.h, 1}, x.ref.squeeze(1)); // size 3: unchanged
    expect_op("rt_torch_unsqueeze", {x.h, 0}, x.ref.unsqueeze(0));
    expect_op("rt_torch_unsqueeze", {x.h, -1}, x.ref.unsqueeze(-1));
    expect_op("rt_torch_flatten_using_ints", {x.h}, x.ref.flatten()); // both dims omitted
    expect_op("rt_torch_flatten_using_ints", {x.h, 1}, x.ref.flatten(1));
    expect_op("rt_torch_flatten_using_ints", {x.h, 1, 2}, x.ref.flatten(1, 2));
}

TEST_CASE_FIXTURE(LeakChecked, "expand and contiguous") {
    const Input x = input({3, 1}, 63);
    expect_op("rt_torch_expand", {x.h, ints({2, 3, 4})}, x.ref.expand({2, 3, 4}));
    expect_op("rt_torch_expand", {x.h, ints({-1, 5})}, x.ref.expand({-1, 5}));

    SKIP_UNLESS_OP("rt_torch_is_contiguous") // an operator from LibTorch 2.0 on
    const Input y = input({3, 4}, 64);
    const int64_t transposed = op_handle("rt_torch_transpose_int", {y.h, 0, 1});
    CHECK_FALSE(op("rt_torch_is_contiguous", {transposed}).as_bool());
    const int64_t packed = op_handle("rt_torch_contiguous", {transposed});
    CHECK(op("rt_torch_is_contiguous", {packed}).as_bool());
    expect_same(packed, y.ref.t().contiguous());
    expect_op("rt_torch_contiguous", {transposed, "contiguous_format"}, y.ref.t().contiguous());
}

TEST_CASE_FIXTURE(LeakChecked, "size queries") {
    SKIP_UNLESS_OP("rt_torch_dim") // dim and numel are operators from LibTorch 2.0 on
    const Input x = input({2, 3, 4}, 65);
    CHECK(op("rt_torch_dim", {x.h}).as_i64() == x.ref.dim());
    CHECK(op("rt_torch_numel", {x.h}).as_i64() == x.ref.numel());
    CHECK(op("rt_torch_size_int", {x.h, -1}).as_i64() == x.ref.size(-1));
}
