// A host bug must not crash the plugin (issue 10, items 5-10 and 14): values a
// careless host builds by hand (NULL array items, negative lengths, NULL text,
// forged handles) reach the plugin's real boxed thunks and typed C symbols and
// come back as an error naming the parameter, with nothing leaked. Each message
// is checked whole.
#include "test_support.h"

#include <algorithm>

using namespace plugin_test;

namespace {

template <class Fn>
Fn typed(const char* name) {
    return reinterpret_cast<Fn>(plugin().function(name).typed);
}

// The failure of the typed call just made on this thread.
std::string typed_error() {
    CHECK(typed<bool (*)()>("rt_torch_error_pending")());
    return typed<const char* (*)()>("rt_torch_last_error")();
}

void expect_message(const Outcome& outcome, const std::string& message) {
    INFO("result: " << (outcome.ok ? "ok" : outcome.error));
    REQUIRE_FALSE(outcome.ok);
    CHECK(outcome.error == message);
}

SplValue raw_array(const SplValue* items, int64_t len) {
    SplValue v{};
    v.tag = SPL_ARRAY;
    v.as.array = SplArray{items, len};
    return v;
}

SplValue raw_text(const char* ptr) {
    SplValue v{};
    v.tag = SPL_TEXT;
    v.as.text = SplText{ptr, 0};
    return v;
}

const Arg null_items_3 = Arg::raw(raw_array(nullptr, 3));

// A handle with the plugin's tag that the plugin never issued: a live one's
// slot with a generation the slot has not reached yet.
int64_t never_issued_like(int64_t live) { return live + (int64_t(1000) << 24); }

// LibTorch's message with the plugin's note at the end of its first line.
std::string with_no_cuda_note(const std::string& message) {
    const size_t end = std::min(message.find('\n'), message.size());
    return message.substr(0, end) + " (no CUDA device is available: torch.cuda.is_available() is false)" +
           message.substr(end);
}

} // namespace

// --- item 5: NULL array items with a positive length ---------------------------

TEST_CASE_FIXTURE(LeakChecked, "boxed: NULL array items are refused, naming the parameter") {
    const Input a = input({2, 3}, 201);
    expect_message(try_op("rt_torch_view", {a.h, null_items_3}),
                   "rt_torch_view(): argument 2 'size': array items are NULL but its length is 3");
    expect_message(try_op("rt_torch_cat", {null_items_3}),
                   "rt_torch_cat(): argument 1 'tensors': array items are NULL but its length is 3");
    expect_message(
        try_op("rt_torch__foreach_add_ScalarList", {list({a.h}), null_items_3}),
        "rt_torch__foreach_add_ScalarList(): argument 2 'scalars': array items are NULL but its length is 3");
    expect_message(plugin().try_runtime("rt_torch_from_f64", {null_items_3, ints({3}), "", "", false}),
                   "rt_torch_from_f64(): argument 1 'data': array items are NULL but its length is 3");
    expect_message(plugin().try_runtime("rt_torch_from_bool", {null_items_3, ints({3}), ""}),
                   "rt_torch_from_bool(): argument 1 'data': array items are NULL but its length is 3");
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "typed: NULL list data is refused, naming the parameter") {
    const Input a = input({2, 3}, 202);
    using ViewFn = int64_t (*)(int64_t, SplI64Array);
    CHECK(typed<ViewFn>("rt_torch_view")(a.h, SplI64Array{nullptr, 3}) == 0);
    CHECK(typed_error() == "rt_torch_view: argument 'size': list data is NULL but its length is 3");

    using CatFn = int64_t (*)(SplI64Array, int64_t);
    CHECK(typed<CatFn>("rt_torch_cat")(SplI64Array{nullptr, 2}, 0) == 0);
    CHECK(typed_error() == "rt_torch_cat: argument 'tensors': list data is NULL but its length is 2");

    // bool[3]: every other argument valid, so output_mask is the only problem
    // whatever order the conversions run in.
    const Input grad = input({2, 3}, 203), mean = input({2, 1}, 204), rstd = input({2, 1}, 205);
    using LayerNormBackwardFn =
        SplValue (*)(int64_t, int64_t, SplI64Array, int64_t, int64_t, int64_t, int64_t, SplBoolArray);
    const int64_t normalized_shape[] = {3};
    const SplValue r = typed<LayerNormBackwardFn>("rt_torch_native_layer_norm_backward")(
        grad.h, a.h, SplI64Array{normalized_shape, 1}, mean.h, rstd.h, 0, 0, SplBoolArray{nullptr, 3});
    CHECK(r.tag == SPL_NIL);
    CHECK(typed_error() == "rt_torch_native_layer_norm_backward: argument 'output_mask': list data is NULL but its "
                           "length is 3");
    expect_still_works();
}

// --- item 6: a NULL text pointer is not "not given" ----------------------------

TEST_CASE_FIXTURE(LeakChecked, "boxed: a NULL text pointer is refused for required and optional text") {
    const Input a = input({2}, 206);
    const Arg null_text = Arg::raw(raw_text(nullptr));
    expect_message(plugin().try_runtime("rt_torch_from_f64", {floats({1, 2}), ints({2}), null_text, "", false}),
                   "rt_torch_from_f64(): argument 3 'dtype': text pointer is NULL (None is nil)");
    expect_message(plugin().try_runtime("rt_torch_from_i64", {ints({1, 2}), ints({2}), "", null_text, false}),
                   "rt_torch_from_i64(): argument 4 'device': text pointer is NULL (None is nil)");
    expect_message(try_op("rt_torch_to_dtype", {a.h, null_text}),
                   "rt_torch_to_dtype(): argument 2 'dtype': text pointer is NULL (None is nil)");
    // Optional text: None is nil, so a NULL pointer is still a malformed value.
    expect_message(try_op("rt_torch_zeros", {ints({2}), null_text}),
                   "rt_torch_zeros(): argument 2 'dtype': text pointer is NULL (None is nil)");
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "typed: NULL for a required text parameter is an error, \"\" the default") {
    using FromF64 = int64_t (*)(SplF64Array, SplI64Array, const char*, const char*, bool);
    using FromI64 = int64_t (*)(SplI64Array, SplI64Array, const char*, const char*, bool);
    const double values[] = {1.5, -2.25};
    const int64_t ints_[] = {7, -8};
    const int64_t shape[] = {2};
    const FromF64 from_f64 = typed<FromF64>("rt_torch_from_f64");
    const FromI64 from_i64 = typed<FromI64>("rt_torch_from_i64");

    CHECK(from_f64(SplF64Array{values, 2}, SplI64Array{shape, 1}, nullptr, "", false) == 0);
    CHECK(typed_error() == "rt_torch_from_f64: argument 'dtype': text is required here, got NULL (nil)");
    CHECK(from_f64(SplF64Array{values, 2}, SplI64Array{shape, 1}, "", nullptr, false) == 0);
    CHECK(typed_error() == "rt_torch_from_f64: argument 'device': text is required here, got NULL (nil)");
    CHECK(from_i64(SplI64Array{ints_, 2}, SplI64Array{shape, 1}, nullptr, "", false) == 0);
    CHECK(typed_error() == "rt_torch_from_i64: argument 'dtype': text is required here, got NULL (nil)");

    using ToDtype = int64_t (*)(int64_t, const char*, bool, bool, const char*);
    const Input a = input({2}, 207);
    CHECK(typed<ToDtype>("rt_torch_to_dtype")(a.h, nullptr, false, false, nullptr) == 0);
    CHECK(typed_error() == "rt_torch_to_dtype: argument 'dtype': text is required here, got NULL (nil)");

    // "" keeps its documented meaning: float32 (from f64 data) on the CPU.
    const int64_t h = from_f64(SplF64Array{values, 2}, SplI64Array{shape, 1}, "", "", false);
    REQUIRE(h != 0);
    expect_same(h, at::tensor({1.5, -2.25}, at::kDouble).to(at::kFloat));
    plugin().free(h);
}

// --- item 7: a negative array length ------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "a negative array length is reported as such") {
    const Input a = input({2, 3}, 208);
    const SplValue items[] = {Arg(2).value(), Arg(3).value()};
    expect_message(try_op("rt_torch_view", {a.h, Arg::raw(raw_array(items, -3))}),
                   "rt_torch_view(): argument 2 'size': array length -3 is negative");
    expect_message(
        plugin().try_runtime("rt_torch_from_f64", {Arg::raw(raw_array(items, -1)), ints({0}), "", "", false}),
        "rt_torch_from_f64(): argument 1 'data': array length -1 is negative");
    expect_message(try_op("rt_torch__foreach_add_ScalarList", {list({a.h}), Arg::raw(raw_array(items, -2))}),
                   "rt_torch__foreach_add_ScalarList(): argument 2 'scalars': array length -2 is negative");
    // Typed: a negative length is None, which a required list refuses.
    using ViewFn = int64_t (*)(int64_t, SplI64Array);
    const int64_t sizes[] = {3, 2};
    CHECK(typed<ViewFn>("rt_torch_view")(a.h, SplI64Array{sizes, -3}) == 0);
    CHECK(typed_error() == "rt_torch_view: argument 'size': a list is required here, got None (length -3)");
    expect_still_works();
}

// --- item 8: which element of a list is wrong ----------------------------------

TEST_CASE_FIXTURE(LeakChecked, "a wrong list element is named by index and kind") {
    const Input a = input({2, 3}, 209);
    expect_message(try_op("rt_torch_view", {a.h, list({3, 2, 1.5})}),
                   "rt_torch_view(): argument 2 'size' must be an array of integers ([i64]): element 2 is f64");
    expect_message(try_op("rt_torch_view", {a.h, list({3, ints({2})})}),
                   "rt_torch_view(): argument 2 'size' must be an array of integers ([i64]): element 1 is an array");
    expect_message(try_op("rt_torch_cat", {list({a.h, "b"})}),
                   "rt_torch_cat(): argument 1 'tensors' must be an array of integers ([i64]): element 1 is text");
    expect_message(plugin().try_runtime("rt_torch_from_f64", {list({1.0, true}), ints({2}), "", "", false}),
                   "rt_torch_from_f64(): argument 1 'data' must be an array of numbers ([f64]): element 1 is bool");
    expect_message(plugin().try_runtime("rt_torch_from_bool", {list({true, false, 1}), ints({3}), ""}),
                   "rt_torch_from_bool(): argument 1 'data' must be an array of bools ([bool]): element 2 is i64");
    expect_message(try_op("rt_torch__foreach_add_ScalarList", {list({a.h, a.h}), list({1, "two"})}),
                   "rt_torch__foreach_add_ScalarList: argument 'scalars': element 1 is text, not a number (i64, "
                   "f64 or bool)");
    expect_still_works();
}

// --- item 9: never issued vs. freed --------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "a forged handle is not called stale; a freed one is") {
    const Input a = input({2, 3}, 210);
    const int64_t forged = never_issued_like(a.h);
    const std::string f = std::to_string(forged);
    expect_message(try_op("rt_torch_neg", {forged}),
                   "rt_torch_neg: self: " + f + " is not a live tensor handle (never issued by this plugin)");
    expect_message(plugin().try_runtime("rt_torch_release", {forged}),
                   "rt_torch_release: tensor to free: " + f +
                       " is not a live tensor handle (never issued by this plugin)");
    // A slot index the table has never handed out.
    const int64_t unused_slot = (int64_t(0x5A7) << 48) | (int64_t(1) << 24) | 0xFFFFFF;
    expect_message(try_op("rt_torch_neg", {unused_slot}),
                   "rt_torch_neg: self: " + std::to_string(unused_slot) +
                       " is not a live tensor handle (never issued by this plugin)");
    using NegFn = int64_t (*)(int64_t);
    CHECK(typed<NegFn>("rt_torch_neg")(forged) == 0);
    CHECK(typed_error() == "rt_torch_neg: self: " + f + " is not a live tensor handle (never issued by this plugin)");

    const int64_t doomed = op_handle("rt_torch_neg", {a.h});
    plugin().free(doomed);
    const std::string d = std::to_string(doomed);
    expect_message(try_op("rt_torch_neg", {doomed}),
                   "rt_torch_neg: self: tensor handle " + d + " is stale (already freed)");
    expect_message(plugin().try_runtime("rt_torch_release", {doomed}),
                   "rt_torch_release: tensor to free: tensor handle " + d + " is stale (already freed)");
    expect_still_works();
}

// --- item 10: one name for `self` -----------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "the schema's 'self' is named the same in every message") {
    const Input a = input({2, 3}, 211);
    expect_message(try_op("rt_torch_add_Tensor", {"a", a.h}),
                   "rt_torch_add_Tensor(): argument 1 'self' must be a tensor handle (i64), got text");
    expect_message(try_op("rt_torch_add_Tensor", {12345, a.h}),
                   "rt_torch_add_Tensor: self: 12345 is not a tensor handle");
    expect_message(try_op("rt_torch_view", {a.h, list({3, 2.0})}),
                   "rt_torch_view(): argument 2 'size' must be an array of integers ([i64]): element 1 is f64");
    // The registered Simple name stays escaped: `self` is a Simple keyword, and
    // a host matches its extern fn declarations against these names.
    CHECK(std::string(plugin().function("rt_torch_add_Tensor").params[0].name) == "self_");
    expect_still_works();
}

// --- nothing leaks --------------------------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "malformed values in a loop leave the live count flat") {
    const Input a = input({2, 3}, 212);
    const int64_t start = plugin().live_handles();
    const SplValue items[] = {Arg(a.h).value(), Arg(a.h).value()};
    const Arg negative = Arg::raw(raw_array(items, -1)), null_text = Arg::raw(raw_text(nullptr));
    int failures = 0;
    for (int i = 0; i < 200; ++i) {
        failures += try_op("rt_torch_cat", {null_items_3}).ok ? 0 : 1;
        failures += try_op("rt_torch_cat", {negative}).ok ? 0 : 1;
        failures += try_op("rt_torch_cat", {list({a.h, a.h, 1.5})}).ok ? 0 : 1;
        failures += try_op("rt_torch_neg", {never_issued_like(a.h)}).ok ? 0 : 1;
        failures +=
            plugin().try_runtime("rt_torch_from_f64", {floats({1}), ints({1}), null_text, "", false}).ok ? 0 : 1;
    }
    CHECK(failures == 1000);
    CHECK(plugin().live_handles() == start);
}

// --- item 14 (CUDA part): say that there is no CUDA device ----------------------

TEST_CASE_FIXTURE(LeakChecked, "a CUDA error without a CUDA device says so") {
    if (plugin().runtime("rt_torch_cuda_device_count").as_i64() > 0) {
        MESSAGE("skipped: this machine has a CUDA device");
        return;
    }
    const Input a = input({2}, 213);
    // LibTorch's own text for the same call ("CUDA error: CUDA driver version is
    // insufficient for CUDA runtime version" and advice lines, on a CUDA build).
    const std::string aten = aten_error([&] { a.ref.to(c10::Device(c10::kCUDA), at::kFloat); });
    REQUIRE(aten != "(no error)");
    expect_message(try_op("rt_torch_to_device", {a.h, "cuda", "float32", false, false, nil}), with_no_cuda_note(aten));
    // Errors that do not mention CUDA are passed on untouched.
    const Input b = input({3}, 214);
    expect_message(try_op("rt_torch_add_Tensor", {a.h, b.h}), aten_error([&] { at::add(a.ref, b.ref); }));
    expect_still_works();
}
