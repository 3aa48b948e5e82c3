// Bad input: every failure comes back as an error text naming the problem,
// and the plugin keeps working afterwards.
#include "test_support.h"

#include <thread>

using namespace plugin_test;

namespace {

std::string last_error() { return plugin().runtime("rt_torch_last_error").as_text(); }

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "wrong arity names the function and the expected count") {
    const Input a = input({2, 3}, 101);
    expect_error(try_op("rt_torch_add_Tensor", {a.h}),
                 {"rt_torch_add_Tensor", "takes 2 to 3 arguments", "but 1 was given"});
    expect_error(try_op("rt_torch_add_Tensor", {a.h, a.h, 1, 2}),
                 {"rt_torch_add_Tensor", "takes 2 to 3 arguments", "but 4 were given"});
    expect_error(try_op("rt_torch_neg", {}), {"rt_torch_neg", "takes 1 argument", "0 were given"});
    expect_error(plugin().try_runtime("rt_torch_release", {a.h, a.h}), {"rt_torch_release", "takes 1 argument"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "wrong value types name the parameter") {
    const Input a = input({2, 3}, 102);
    expect_error(try_op("rt_torch_add_Tensor", {a.h, "not a tensor"}),
                 {"rt_torch_add_Tensor", "'other'", "tensor handle", "text"});
    expect_error(try_op("rt_torch_select_int", {a.h, 0.5, 0}), {"rt_torch_select_int", "'dim'", "i64", "f64"});
    expect_error(try_op("rt_torch_sum_dim_IntList", {a.h, list({0, "one"})}), {"'dim'", "array of integers"});
    expect_error(try_op("rt_torch_add_Scalar", {a.h, nil}), {"'other'", "not nil"});
    expect_error(try_op("rt_torch_cat", {list({a.h, 1.5})}), {"'tensors'"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "freed, forged and doubly freed handles") {
    const Input a = input({2, 3}, 103);
    const int64_t doomed = op_handle("rt_torch_neg", {a.h});
    plugin().free(doomed);
    CHECK_FALSE(plugin().is_live(doomed));

    expect_error(try_op("rt_torch_add_Tensor", {a.h, doomed}), {"other", "stale", "freed"});
    CHECK(last_error().find("stale") != std::string::npos);
    expect_error(try_op("rt_torch_neg", {12345}), {"12345", "not a tensor handle"});
    expect_error(try_op("rt_torch_neg", {0}), {"None"});
    expect_error(plugin().try_runtime("rt_torch_release", {doomed}), {"stale", "already freed"});
    expect_error(plugin().try_runtime("rt_torch_release", {12345}), {"not a tensor handle"});
    // A new tensor may reuse the slot; the old handle still must not reach it.
    const int64_t fresh = op_handle("rt_torch_neg", {a.h});
    CHECK(fresh != doomed);
    expect_error(try_op("rt_torch_neg", {doomed}), {"stale"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "LibTorch's own messages reach the caller") {
    const Input a = input({2, 3}, 104), b = input({4, 5}, 105);

    const std::string add_message = aten_error([&] { at::add(a.ref, b.ref); });
    CHECK(add_message.find("The size of tensor a (3) must match the size of tensor b (5)") != std::string::npos);
    expect_error(try_op("rt_torch_add_Tensor", {a.h, b.h}),
                 {"The size of tensor a (3) must match the size of tensor b (5)"});
    CHECK(last_error() == add_message);

    const std::string matmul_message = aten_error([&] { at::matmul(a.ref, b.ref); });
    expect_error(try_op("rt_torch_matmul", {a.h, b.h}), {matmul_message});
    CHECK(last_error() == matmul_message);
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "unknown dtype and device names list the valid ones") {
    expect_error(try_op("rt_torch_zeros", {ints({2}), "float33"}), {"unknown dtype 'float33'", "float32", "int64"});
    expect_error(try_op("rt_torch_ones", {ints({2}), nil, nil, "gpu:0"}),
                 {"Expected one of cpu, cuda", "device type at start of device string: gpu"});
    expect_error(plugin().try_runtime("rt_torch_from_f64", {floats({1, 2}), ints({2}), "float33", "", false}),
                 {"float33", "float32"});
    const Input a = input({2}, 106);
    expect_error(try_op("rt_torch_to_dtype", {a.h, "int65"}), {"unknown dtype 'int65'"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "rt_torch_from_f64 with data not matching the shape") {
    expect_error(plugin().try_runtime("rt_torch_from_f64", {floats({1, 2, 3, 4, 5}), ints({2, 3}), "", "", false}),
                 {"[2, 3]", "6 values", "got 5"});
    expect_error(plugin().try_runtime("rt_torch_from_f64", {floats({1}), ints({-1}), "", "", false}), {"non-negative"});
    expect_error(plugin().try_runtime("rt_torch_from_i64", {ints({1, 2}), ints({3}), "", "", false}),
                 {"needs 3 values, got 2"});
    CHECK(last_error().find("needs 3 values, got 2") != std::string::npos);
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "the last error stays until the next failure") {
    expect_error(try_op("rt_torch_neg", {12345}), {"not a tensor handle"});
    const std::string message = last_error();
    CHECK(message.find("12345") != std::string::npos);
    expect_still_works(); // successful calls leave the message alone
    CHECK(last_error() == message);
    plugin().runtime("rt_torch_clear_error");
    CHECK(last_error().empty());
}

TEST_CASE_FIXTURE(LeakChecked, "error state is per thread") {
    expect_error(try_op("rt_torch_neg", {12345}), {"12345"});
    const std::string main_message = last_error();

    std::string thread_error, thread_message_before;
    std::thread worker([&] {
        thread_message_before = last_error(); // a fresh thread has seen no failure
        const Outcome failed = try_op("rt_torch_zeros", {ints({2}), "float33"});
        thread_error = failed.ok ? "(no error)" : last_error();
    });
    worker.join();
    CHECK(thread_message_before.empty());
    CHECK(thread_error.find("float33") != std::string::npos);
    CHECK(last_error() == main_message);
}
