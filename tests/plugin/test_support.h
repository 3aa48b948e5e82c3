// What every test file uses: the plugin host, the bridge between plugin
// handles and ATen tensors (through the plugin's own boxed thunks), the
// comparison against a reference computed directly with ATen, and the
// per-test-case leak check.
#pragma once

#include "plugin_host.h"

#include <ATen/ATen.h>
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace plugin_test {

using plugin_host::Arg;
using plugin_host::bools;
using plugin_host::floats;
using plugin_host::ints;
using plugin_host::list;
using plugin_host::nil;
using plugin_host::Outcome;
using plugin_host::Value;

plugin_host::Plugin& plugin();

// Whether this build's LibTorch has the entry point. Operators differ between
// LibTorch versions: a test of one that is missing says so and skips it by name.
bool has_op(const std::string& name);
#define SKIP_UNLESS_OP(name)                                                                                           \
    if (!plugin_test::has_op(name)) {                                                                                  \
        MESSAGE("skipped: this LibTorch has no operator for " << (name));                                              \
        return;                                                                                                        \
    }

// Shorthands for plugin().op / op_handle / try_op.
Value op(const std::string& name, const std::vector<Arg>& args);
int64_t op_handle(const std::string& name, const std::vector<Arg>& args);
Outcome try_op(const std::string& name, const std::vector<Arg>& args);

// The tests' own table of dtype names (independent of the plugin's).
c10::ScalarType dtype_of(const std::string& name);
std::string dtype_name(c10::ScalarType type);

// One input held by both sides: a plugin handle and the same values as an ATen tensor.
struct Input {
    int64_t h;
    at::Tensor ref;
};

// Uploads `ref` through rt_torch_from_f64 / from_i64 / from_bool, keeping its dtype.
Input upload(const at::Tensor& ref, bool requires_grad = false);
// Deterministic sample values (normal, from a seeded ATen generator) of a shape.
at::Tensor sample(at::IntArrayRef shape, uint64_t seed = 1, c10::ScalarType type = at::kFloat);
// sample() uploaded.
Input input(at::IntArrayRef shape, uint64_t seed = 1, c10::ScalarType type = at::kFloat);

// Reads a plugin tensor back (rt_torch_shape, rt_torch_dtype, rt_torch_to_*_list).
at::Tensor to_aten(int64_t handle);
std::vector<int64_t> shape_of(int64_t handle);
std::string dtype_of_handle(int64_t handle);
std::vector<int64_t> handles_of(const Value& array);

// Checks dtype, shape and values of a plugin result against the ATen reference, exactly:
// the plugin and the reference make the same ATen call on the same machine, so every value
// is the same bits (NaN matches NaN in the same position; 0.0 and -0.0 differ). A reference
// that computes differently (another kernel, device or dtype) is not a case for this.
void expect_same(int64_t handle, const at::Tensor& expected);
// What expect_same finds: "" when dtype, shape and every value's bits agree, else the first
// disagreement (dtype, shape, NaN places, or how many values differ).
std::string tensor_difference(const at::Tensor& got, const at::Tensor& expected);
// op_handle(name, args) then expect_same.
void expect_op(const std::string& name, const std::vector<Arg>& args, const at::Tensor& expected);

// Checks that a call failed and that its message holds every fragment.
void expect_error(const Outcome& outcome, std::initializer_list<std::string> fragments);
// Checks that the plugin still works after a failure: a fresh add is right.
void expect_still_works();

// LibTorch's own message for a failing ATen call (what the plugin must pass on).
template <class F>
std::string aten_error(F&& body) {
    try {
        body();
    } catch (const c10::Error& e) {
        return e.what_without_backtrace();
    }
    return "(no error)";
}

// A fixture for TEST_CASE_FIXTURE: at the end of the test case it frees every
// handle the test case received and checks that rt_torch_live_handles is back
// at its starting value.
class LeakChecked {
public:
    LeakChecked();
    ~LeakChecked();

protected:
    int64_t live_at_start_;
    size_t results_mark_;
};

} // namespace plugin_test
