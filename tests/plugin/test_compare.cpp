// expect_same's comparison is exact: the plugin and its reference make the same ATen call on
// the same machine, so one bit of difference, a sign of zero or a NaN in another place is a
// failure, and only a NaN matches a NaN.
#include "test_support.h"

#include <cmath>
#include <vector>

using namespace plugin_test;

namespace {

// `t` with the value at `index` one unit in the last place away: its bits plus one.
at::Tensor nudged(const at::Tensor& t, int64_t index) {
    at::Tensor out = t.clone();
    const c10::ScalarType bits = t.element_size() == 2 ? at::kShort : t.element_size() == 4 ? at::kInt : at::kLong;
    out.view(bits)[index].add_(1);
    return out;
}

} // namespace

TEST_CASE("tensor_difference: equal tensors agree, NaN matching NaN") {
    const at::Tensor x = sample({2, 3}, 5);
    CHECK(tensor_difference(x, x.clone()) == "");
    const at::Tensor with_nan = at::tensor({1.0f, NAN, -2.5f});
    CHECK(tensor_difference(with_nan, with_nan.clone()) == "");
    CHECK(tensor_difference(at::tensor(std::vector<int64_t>{1, 2}), at::tensor(std::vector<int64_t>{1, 2})) == "");
}

TEST_CASE("tensor_difference: one last bit, a zero's sign or a moved NaN is a difference") {
    const at::Tensor x = sample({4}, 6);
    CHECK(tensor_difference(nudged(x, 2), x) == "1 of 4 values not the same bits");
    CHECK(tensor_difference(at::tensor({-0.0f}), at::tensor({0.0f})) == "1 of 1 values not the same bits");
    CHECK(tensor_difference(at::tensor({NAN, 1.0f}), at::tensor({1.0f, 1.0f})) == "1 of 2 values NaN on one side only");
    CHECK(tensor_difference(at::tensor({1.0f}), at::tensor({NAN})) == "1 of 1 values NaN on one side only");
    CHECK(tensor_difference(at::tensor({INFINITY}), at::tensor({-INFINITY})) == "1 of 1 values not the same bits");
    for (c10::ScalarType type : {at::kHalf, at::kBFloat16, at::kDouble}) {
        const at::Tensor y = x.to(type);
        CHECK(tensor_difference(y, y.clone()) == "");
        CHECK(tensor_difference(nudged(y, 0), y) == "1 of 4 values not the same bits");
    }
}

TEST_CASE("tensor_difference: dtype, shape and integer values") {
    CHECK(tensor_difference(at::ones({2}), at::ones({2}, at::kDouble)) == "dtype float32, want float64");
    CHECK(tensor_difference(at::ones({2, 1}), at::ones({2})) == "shape [2, 1], want [2]");
    CHECK(tensor_difference(at::tensor(std::vector<int64_t>{1, 2}), at::tensor(std::vector<int64_t>{1, 3})) ==
          "1 of 2 values differ");
}
