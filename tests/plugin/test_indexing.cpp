// Indexing, slicing, gathering, masking, joining and where.
#include "test_support.h"

using namespace plugin_test;
using at::indexing::None;
using at::indexing::Slice;

TEST_CASE_FIXTURE(LeakChecked, "select and slice, optional bounds omitted and given") {
    const Input x = input({4, 6}, 51);
    expect_op("rt_torch_select_int", {x.h, 0, 2}, x.ref.select(0, 2));
    expect_op("rt_torch_select_int", {x.h, 1, -1}, x.ref.select(1, -1));

    expect_op("rt_torch_slice_Tensor", {x.h}, at::slice(x.ref)); // everything after self omitted
    expect_op("rt_torch_slice_Tensor", {x.h, 1, nil, nil}, at::slice(x.ref, 1, c10::nullopt, c10::nullopt));
    expect_op("rt_torch_slice_Tensor", {x.h, 1, 1, 5, 2}, at::slice(x.ref, 1, 1, 5, 2));
    expect_op("rt_torch_slice_Tensor", {x.h, 0, -3}, x.ref.index({Slice(-3, None)}));
    expect_op("rt_torch_slice_Tensor", {x.h, 1, nil, 2}, x.ref.index({Slice(), Slice(None, 2)}));
    expect_op("rt_torch_narrow", {x.h, 1, 2, 3}, at::narrow(x.ref, 1, 2, 3));
}

TEST_CASE_FIXTURE(LeakChecked, "advanced indexing with a list of handles") {
    const Input x = input({4, 5}, 52);
    const Input rows = upload(at::tensor({3, 0, 3}, at::kLong));
    const Input cols = upload(at::tensor({1, 4, 2}, at::kLong));
    const Input mask = upload(at::gt(x.ref, 0.2));

    expect_op("rt_torch_index_Tensor", {x.h, list({rows.h})}, x.ref.index({rows.ref}));
    expect_op("rt_torch_index_Tensor", {x.h, list({rows.h, cols.h})}, x.ref.index({rows.ref, cols.ref}));
    // nil in the list is None: x[:, cols]
    expect_op("rt_torch_index_Tensor", {x.h, list({nil, cols.h})}, x.ref.index({Slice(), cols.ref}));
    expect_op("rt_torch_index_Tensor", {x.h, list({mask.h})}, x.ref.index({mask.ref})); // boolean mask
    expect_op("rt_torch_index_select", {x.h, 1, cols.h}, at::index_select(x.ref, 1, cols.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "gather, masked_fill and where") {
    const Input x = input({3, 4}, 53);
    const Input index = upload(at::tensor({0, 3, 1, 1, 2, 0}, at::kLong).reshape({3, 2}));
    expect_op("rt_torch_gather", {x.h, 1, index.h}, at::gather(x.ref, 1, index.ref));

    const Input mask = upload(at::lt(x.ref, 0));
    expect_op("rt_torch_masked_fill_Scalar", {x.h, mask.h, -1.5}, at::masked_fill(x.ref, mask.ref, -1.5));
    expect_op("rt_torch_masked_fill_Scalar", {x.h, mask.h, 0}, at::masked_fill(x.ref, mask.ref, 0));

    const Input other = input({4}, 54); // broadcast against [3, 4]
    expect_op("rt_torch_where_self", {mask.h, x.h, other.h}, at::where(mask.ref, x.ref, other.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "cat and stack") {
    const Input a = input({2, 3}, 55), b = input({2, 3}, 56), c = input({1, 3}, 57);
    expect_op("rt_torch_cat", {list({a.h, b.h, c.h})}, at::cat({a.ref, b.ref, c.ref})); // dim omitted: 0
    expect_op("rt_torch_cat", {list({a.h, b.h}), 1}, at::cat({a.ref, b.ref}, 1));
    expect_op("rt_torch_cat", {list({a.h, b.h}), -1}, at::cat({a.ref, b.ref}, -1));
    expect_op("rt_torch_stack", {list({a.h, b.h})}, at::stack({a.ref, b.ref}));
    expect_op("rt_torch_stack", {list({a.h, b.h}), 2}, at::stack({a.ref, b.ref}, 2));
}
