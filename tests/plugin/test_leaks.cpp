// Handle accounting: every result is one handle, freeing returns the count,
// and a long loop does not grow it.
#include "test_support.h"

#include <thread>

using namespace plugin_test;

TEST_CASE_FIXTURE(LeakChecked, "each result is one new handle, freed exactly once") {
    const Input a = input({2, 2}, 121), b = input({2, 2}, 122);
    const int64_t start = plugin().live_handles();

    const int64_t sum = op_handle("rt_torch_add_Tensor", {a.h, b.h});
    CHECK(plugin().live_handles() == start + 1);
    const Value sorted = op("rt_torch_sort", {sum});
    CHECK(plugin().live_handles() == start + 3);
    for (int64_t h : handles_of(sorted)) plugin().free(h);
    plugin().free(sum);
    CHECK(plugin().live_handles() == start);

    // Failed calls leave nothing behind.
    CHECK_FALSE(try_op("rt_torch_matmul", {a.h, op_handle("rt_torch_view", {b.h, ints({4, 1, 1})})}).ok);
    CHECK(plugin().live_handles() == start + 1); // only the view
}

TEST_CASE_FIXTURE(LeakChecked, "10,000 add+free iterations keep the live count flat") {
    const Input a = input({4, 4}, 123), b = input({4}, 124);
    const int64_t start = plugin().live_handles();
    for (int i = 0; i < 10000; ++i) {
        const int64_t sum = op_handle("rt_torch_add_Tensor", {a.h, b.h});
        plugin().free(sum);
        if (i % 1000 == 0) REQUIRE(plugin().live_handles() == start);
    }
    CHECK(plugin().live_handles() == start);
    expect_op("rt_torch_add_Tensor", {a.h, b.h}, at::add(a.ref, b.ref));
}

TEST_CASE_FIXTURE(LeakChecked, "failing calls in a loop do not leak") {
    const Input a = input({2, 3}, 125), b = input({4, 5}, 126);
    const int64_t start = plugin().live_handles();
    int failures = 0;
    for (int i = 0; i < 1000; ++i) failures += try_op("rt_torch_add_Tensor", {a.h, b.h}).ok ? 0 : 1;
    CHECK(failures == 1000);
    CHECK(plugin().live_handles() == start);
}

TEST_CASE_FIXTURE(LeakChecked, "two threads creating and freeing handles at once") {
    const Input a = input({8}, 127), b = input({8}, 128);
    const at::Tensor expected = at::add(a.ref, b.ref);
    const int64_t start = plugin().live_handles();
    auto work = [&](int64_t* wrong) {
        // Calls only: doctest assertions stay on the main thread.
        for (int i = 0; i < 2000; ++i) {
            const int64_t sum = op_handle("rt_torch_add_Tensor", {a.h, b.h});
            const std::vector<double> got = plugin().runtime("rt_torch_to_f64_list", {sum}).as_f64_list();
            *wrong += at::allclose(at::tensor(got, at::kFloat), expected) ? 0 : 1;
            plugin().free(sum);
        }
    };
    int64_t wrong_a = 0, wrong_b = 0;
    std::thread other(work, &wrong_b);
    work(&wrong_a);
    other.join();
    CHECK(wrong_a == 0);
    CHECK(wrong_b == 0);
    CHECK(plugin().live_handles() == start);
}
