// Batches gathered on a background thread (rt_torch_gather_start / _finish, the
// DataLoader's prefetch): the rows equal at::index_select's, errors come back on
// the thread that finishes the job and on no other, and the handle table stays
// consistent while jobs run on several threads at once.
#include "test_support.h"

#include <atomic>
#include <thread>

using namespace plugin_test;

namespace {

Outcome start(const std::vector<int64_t>& tensors, const std::vector<int64_t>& rows) {
    return plugin().try_runtime("rt_torch_gather_start", {ints(tensors), ints(rows)});
}

Outcome finish(int64_t job) { return plugin().try_runtime("rt_torch_gather_finish", {job}); }

template <class Fn>
Fn typed(const char* name) {
    return reinterpret_cast<Fn>(plugin().function(name).typed);
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "gathered rows equal index_select's, for each tensor, negative rows from the end") {
    const Input x = input({10, 3, 4});
    const Input y = upload(at::arange(10, at::kLong) * 7);
    const Input m = upload(at::rand({10}, at::kFloat) > 0.5);
    const std::vector<int64_t> rows{3, 0, 9, 3, -1, -10};
    const at::Tensor index = at::tensor(std::vector<int64_t>{3, 0, 9, 3, 9, 0}, at::kLong);
    const Outcome job = start({x.h, y.h, m.h}, rows);
    REQUIRE(job.ok);
    const Outcome done = finish(job.value.as_i64());
    REQUIRE(done.ok);
    const std::vector<int64_t> parts = handles_of(done.value);
    REQUIRE(parts.size() == 3);
    expect_same(parts[0], at::index_select(x.ref, 0, index));
    expect_same(parts[1], at::index_select(y.ref, 0, index));
    expect_same(parts[2], at::index_select(m.ref, 0, index));
    CHECK_FALSE(plugin().is_live(job.value.as_i64())); // finishing frees the job
}

TEST_CASE_FIXTURE(LeakChecked, "a job keeps its tensors: freeing their handles while it runs changes nothing") {
    const at::Tensor ref = sample({2000, 64});
    const Input x = upload(ref);
    std::vector<int64_t> rows;
    for (int64_t i = 1999; i >= 0; i -= 3) rows.push_back(i);
    const Outcome job = start({x.h}, rows);
    REQUIRE(job.ok);
    plugin().free(x.h);
    const Outcome done = finish(job.value.as_i64());
    REQUIRE(done.ok);
    expect_same(handles_of(done.value).at(0), at::index_select(ref, 0, at::tensor(rows, at::kLong)));
}

TEST_CASE_FIXTURE(LeakChecked, "a row out of range fails at finish with PyTorch's IndexError text, and frees the job") {
    const Input x = input({5, 2});
    const Outcome job = start({x.h}, {1, 5});
    REQUIRE(job.ok); // the rows are checked on the job's thread
    const Outcome done = finish(job.value.as_i64());
    expect_error(done, {"index 5 is out of bounds for dimension 0 with size 5"});
    CHECK_FALSE(plugin().is_live(job.value.as_i64()));
    expect_error(finish(job.value.as_i64()), {"is stale (already freed)"});
    const Outcome below = start({x.h}, {-6});
    REQUIRE(below.ok);
    expect_error(finish(below.value.as_i64()), {"index -6 is out of bounds for dimension 0 with size 5"});
}

TEST_CASE_FIXTURE(LeakChecked, "bad handles and arguments are named") {
    const Input x = input({4, 2});
    const Input scalar = upload(at::scalar_tensor(1.0));
    expect_error(start({}, {0}), {"tensors: at least one tensor is required"});
    expect_error(start({x.h, scalar.h}, {0}), {"tensors: element 1 is 0-dimensional: it has no rows"});
    expect_error(start({x.h, 12345}, {0}), {"12345 is not a tensor handle"});
    expect_error(finish(x.h), {"job: ", "is a tensor, not a gather job"});
    const Outcome job = start({x.h}, {0, 1});
    REQUIRE(job.ok);
    // a job's handle where a tensor goes
    expect_error(plugin().try_op("rt_torch_neg", {job.value.as_i64()}), {"is a gather job, not a tensor"});
    // freeing an unfinished job waits for it, then it is gone
    plugin().free(job.value.as_i64());
    expect_error(finish(job.value.as_i64()), {"is stale (already freed)"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked,
                  "jobs on four threads at once: right rows, errors only on the thread that finished a failed job") {
    const at::Tensor ref = at::arange(4000, at::kFloat).reshape({1000, 4});
    const Input x = upload(ref);
    std::atomic<int> wrong{0}, leaked_errors{0}, missing_errors{0};
    auto pending = typed<bool (*)()>("rt_torch_error_pending");
    auto start_typed = typed<int64_t (*)(SplI64Array, SplI64Array)>("rt_torch_gather_start");
    auto free_typed = typed<void (*)(int64_t)>("rt_torch_release");
    auto worker = [&](int seed) {
        for (int round = 0; round < 40; ++round) {
            const bool bad = (round + seed) % 7 == 0;
            std::vector<int64_t> rows{(seed * 97 + round * 13) % 1000, (round * 31) % 1000, bad ? 1000 : 999};
            const int64_t sources[1] = {x.h};
            const int64_t job = start_typed(SplI64Array{sources, 1}, SplI64Array{rows.data(), 3});
            if (pending()) {
                ++wrong;
                continue;
            }
            const Outcome done = finish(job);
            if (bad) {
                if (done.ok || done.error.find("index 1000 is out of bounds") == std::string::npos) ++missing_errors;
            } else if (!done.ok) {
                ++leaked_errors; // another thread's failure showed up here
            } else {
                const int64_t part = handles_of(done.value).at(0);
                const at::Tensor got = to_aten(part);
                if (!got.equal(at::index_select(ref, 0, at::tensor(rows, at::kLong)))) ++wrong;
                free_typed(part);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back(worker, t);
    for (std::thread& t : threads) t.join();
    CHECK(wrong == 0);
    CHECK(leaked_errors == 0);
    CHECK(missing_errors == 0);
}
