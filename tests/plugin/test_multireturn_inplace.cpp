// Operators with several results (arrays of handles, mixed tuples), in-place
// operators and out= operators.
#include "test_support.h"

#include <tuple>

using namespace plugin_test;

namespace {

// A multi-return's handles against ATen's tuple, element by element.
template <class... T>
void expect_tuple(const Value& got, const std::tuple<T...>& expected) {
    const std::vector<int64_t> handles = handles_of(got);
    REQUIRE(handles.size() == sizeof...(T));
    std::apply(
        [&](const auto&... e) {
            size_t i = 0;
            (expect_same(handles[i++], e), ...);
        },
        expected);
}

void expect_list(const Value& got, const std::vector<at::Tensor>& expected) {
    const std::vector<int64_t> handles = handles_of(got);
    REQUIRE(handles.size() == expected.size());
    for (size_t i = 0; i < handles.size(); ++i) expect_same(handles[i], expected[i]);
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "max.dim, min.dim, sort and topk return arrays of handles") {
    const Input x = input({3, 5}, 71);
    expect_tuple(op("rt_torch_max_dim", {x.h, 1}), at::max(x.ref, 1));
    expect_tuple(op("rt_torch_max_dim", {x.h, 0, true}), at::max(x.ref, 0, true));
    expect_tuple(op("rt_torch_min_dim", {x.h, -1}), at::min(x.ref, -1));
    expect_tuple(op("rt_torch_sort", {x.h}), at::sort(x.ref));
    expect_tuple(op("rt_torch_sort", {x.h, 0, true}), at::sort(x.ref, 0, true));
    expect_tuple(op("rt_torch_topk", {x.h, 2}), at::topk(x.ref, 2));
    expect_tuple(op("rt_torch_topk", {x.h, 2, 0, false}), at::topk(x.ref, 2, 0, false));
    expect_tuple(op("rt_torch_kthvalue", {x.h, 2, 1, true}), at::kthvalue(x.ref, 2, 1, true));
    // correction given as nil: LibTorch 1.13 has no default for it
    expect_tuple(op("rt_torch_var_mean_correction", {x.h, ints({1}), nil}),
                 at::var_mean(x.ref, {1}, c10::nullopt, false));
}

TEST_CASE_FIXTURE(LeakChecked, "split, chunk and unbind return lists of handles") {
    const Input x = input({5, 4}, 72);
    expect_list(op("rt_torch_split_Tensor", {x.h, 2}), at::split(x.ref, 2));
    expect_list(op("rt_torch_chunk", {x.h, 2, 1}), at::chunk(x.ref, 2, 1));
    expect_list(op("rt_torch_unbind_int", {x.h}), at::unbind(x.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "mixed tuples") {
    // (Tensor, Tensor[]): a handle and an array of handles.
    const Input points = input({20, 2}, 73);
    const Value hist = op("rt_torch_histogramdd", {points.h, ints({3, 4})});
    const auto [ref_hist, ref_edges] = at::histogramdd(points.ref, {3, 4});
    REQUIRE(hist.as_array().size() == 2);
    expect_same(hist.as_array()[0].as_i64(), ref_hist);
    expect_list(hist.as_array()[1], ref_edges);

    // (float, int): plain numbers, no handles.
    const Input values = upload(at::linspace(-2.0, 3.0, 11).to(at::kFloat));
    const Value qparams = op("rt_torch__choose_qparams_per_tensor", {values.h});
    const auto [scale, zero_point] = at::_choose_qparams_per_tensor(values.ref, false);
    REQUIRE(qparams.as_array().size() == 2);
    CHECK(qparams.as_array()[0].as_f64() == doctest::Approx(scale));
    CHECK(qparams.as_array()[1].as_i64() == zero_point);

    // A Scalar result keeps int versus float.
    CHECK(op("rt_torch_item", {upload(at::scalar_tensor(42, at::kLong)).h}).as_i64() == 42);
    CHECK(op("rt_torch_item", {upload(at::scalar_tensor(2.5, at::kDouble)).h}).as_f64() == 2.5);
}

TEST_CASE_FIXTURE(LeakChecked, "in-place operators return the same handle and mutate it") {
    const Input a = input({2, 3}, 74), b = input({3}, 75);
    at::Tensor expected = a.ref.clone();
    const int64_t live_before = plugin().live_handles();

    CHECK(op_handle("rt_torch_add__Tensor", {a.h, b.h}) == a.h);
    expected.add_(b.ref);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_add__Tensor", {a.h, b.h, -2}) == a.h); // alpha given
    expected.add_(b.ref, -2);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_mul__Tensor", {a.h, b.h}) == a.h);
    expected.mul_(b.ref);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_add__Scalar", {a.h, 0.5}) == a.h);
    expected.add_(0.5);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_clamp_", {a.h, nil, 0.3}) == a.h);
    expected.clamp_(c10::nullopt, 0.3);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_copy_", {a.h, b.h}) == a.h); // broadcast copy
    expected.copy_(b.ref);
    expect_same(a.h, expected);

    CHECK(op_handle("rt_torch_fill__Scalar", {a.h, 7}) == a.h);
    expect_same(a.h, at::full({2, 3}, 7.0, at::kFloat));

    CHECK(op_handle("rt_torch_zero_", {a.h}) == a.h);
    expect_same(a.h, at::zeros({2, 3}));

    CHECK(plugin().live_handles() == live_before); // in-place creates no handle
}

TEST_CASE_FIXTURE(LeakChecked, "out= operators write into out and return its handle") {
    const Input a = input({2, 3}, 76), b = input({2, 3}, 77), m = input({3, 4}, 78);
    const Input out = upload(at::zeros({2, 3}));
    const Input mm_out = upload(at::empty({0}));
    const Input sum_out = upload(at::zeros({2}, at::kDouble));
    const int64_t live_before = plugin().live_handles();

    CHECK(op_handle("rt_torch_add_out", {a.h, b.h, 1, out.h}) == out.h);
    expect_same(out.h, at::add(a.ref, b.ref));
    CHECK(op_handle("rt_torch_add_out", {a.h, b.h, 3, out.h}) == out.h);
    expect_same(out.h, at::add(a.ref, b.ref, 3));
    CHECK(op_handle("rt_torch_mm_out", {a.h, m.h, mm_out.h}) == mm_out.h); // resized to [2, 4]
    expect_same(mm_out.h, at::mm(a.ref, m.ref));
    CHECK(op_handle("rt_torch_sum_IntList_out", {a.h, ints({1}), false, "float64", sum_out.h}) == sum_out.h);
    expect_same(sum_out.h, at::sum(a.ref, {1}, false, at::kDouble));

    CHECK(plugin().live_handles() == live_before); // out= creates no handle
}
