// Handle lookups at the edge of a slot's generations, which the mutation check
// (scripts/mutation_check.sh, core-stale-generation) found untested: the handle that a freed
// slot would issue next carries the slot's current generation, and was never issued, so it
// is not called stale.
#include "test_support.h"

#include <string>

using namespace plugin_test;

namespace {

void expect_error_text(const Outcome& outcome, const std::string& message) {
    INFO("result: " << (outcome.ok ? "ok" : outcome.error));
    REQUIRE_FALSE(outcome.ok);
    CHECK(outcome.error == message);
}

// The generation is the 24 bits above the slot number (core/handle_table.h).
int64_t next_generation_of(int64_t handle) { return handle + (int64_t(1) << 24); }

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "the handle a freed slot would issue next is never issued, not stale") {
    const Input a = input({2, 3}, 211);
    const int64_t freed = op_handle("rt_torch_neg", {a.h});
    plugin().free(freed);
    const int64_t next = next_generation_of(freed);
    expect_error_text(try_op("rt_torch_neg", {next}), "rt_torch_neg: self: " + std::to_string(next) +
                                                          " is not a live tensor handle (never issued by this plugin)");
    expect_error_text(try_op("rt_torch_neg", {freed}),
                      "rt_torch_neg: self: tensor handle " + std::to_string(freed) + " is stale (already freed)");
    expect_still_works();
}
