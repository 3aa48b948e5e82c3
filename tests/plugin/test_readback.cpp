// Reading values back (rt_torch_to_*_list) and making tensors from values
// (rt_torch_from_*): lazy views, complex numbers, every dtype's name,
// unsigned and float8 values, size overflow and bool bytes.
#include "python_dtype_names.h"
#include "test_support.h"

#include "core/libtorch_compat.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace plugin_test;

namespace {

// How many elements of `got` disagree with `want` (one CHECK for thousands of elements).
template <class A, class B, class Same>
size_t mismatches(const std::vector<A>& got, const std::vector<B>& want, Same same) {
    size_t bad = got.size() == want.size() ? 0 : std::max(got.size(), want.size());
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
        if (!same(got[i], want[i])) ++bad;
    return bad;
}

std::vector<double> f64_list(int64_t h) { return plugin().runtime("rt_torch_to_f64_list", {h}).as_f64_list(); }
std::vector<int64_t> i64_list(int64_t h) { return plugin().runtime("rt_torch_to_i64_list", {h}).as_i64_list(); }
std::vector<bool> bool_list(int64_t h) { return plugin().runtime("rt_torch_to_bool_list", {h}).as_bool_list(); }
std::vector<double> complex_list(int64_t h) { return plugin().runtime("rt_torch_to_complex_list", {h}).as_f64_list(); }

// ATen's values, flattened, after making every lazy flag real (the reference
// is ATen's own resolve_conj/resolve_neg, not the plugin's reading).
std::vector<double> aten_f64(const at::Tensor& t) {
    const at::Tensor d = t.resolve_conj().resolve_neg().to(at::kDouble).contiguous().reshape({-1});
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}
std::vector<int64_t> aten_i64(const at::Tensor& t) {
    const at::Tensor l = t.resolve_neg().to(at::kLong).contiguous().reshape({-1});
    return std::vector<int64_t>(l.data_ptr<int64_t>(), l.data_ptr<int64_t>() + l.numel());
}
// Complex values as re, im pairs, from ATen's view_as_real.
std::vector<double> aten_re_im(const at::Tensor& t) {
    return aten_f64(at::view_as_real(t.resolve_conj().resolve_neg().to(at::kComplexDouble)));
}

int64_t from_complex(const std::vector<double>& re_im, const std::vector<int64_t>& shape, const std::string& dtype) {
    return plugin().runtime("rt_torch_from_complex", {floats(re_im), ints(shape), dtype, "", false}).as_i64();
}

} // namespace

// --- issue 10, item 1: lazy view state ------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "a negative view of int64 and float64 reads back negated") {
    const Input ints_in = upload(at::tensor({1, -2, 3, 40}, at::kLong));
    const at::Tensor ints_view = at::_neg_view(ints_in.ref);
    REQUIRE(ints_view.is_neg()); // ATen keeps the values un-negated in storage, behind a flag
    const int64_t h = op_handle("rt_torch__neg_view", {ints_in.h});
    CHECK(op("rt_torch_is_neg", {h}).as_bool());
    CHECK(i64_list(h) == aten_i64(ints_view));
    CHECK(i64_list(h) == std::vector<int64_t>{-1, 2, -3, -40});
    CHECK(f64_list(h) == std::vector<double>{-1, 2, -3, -40}); // the converting path agrees

    const Input floats_in = upload(sample({2, 3}, 5, at::kDouble));
    const int64_t fh = op_handle("rt_torch__neg_view", {floats_in.h});
    CHECK(f64_list(fh) == aten_f64(at::_neg_view(floats_in.ref)));
    CHECK(f64_list(fh) == aten_f64(floats_in.ref.neg()));
    // A transposed (non-contiguous) negative view too.
    const int64_t th = op_handle("rt_torch_t", {fh});
    CHECK(f64_list(th) == aten_f64(at::_neg_view(floats_in.ref).t()));
}

TEST_CASE_FIXTURE(LeakChecked, "imag of a conjugated view_as_complex reads -2 where it is -2") {
    // float64, so that reading imag() as f64 converts nothing: a converting copy resolves the flag anyway.
    const Input pairs = upload(at::tensor({13.0, 2.0, -2.0, -1.0}, at::kDouble).reshape({2, 2}));
    const int64_t z = op_handle("rt_torch_view_as_complex", {pairs.h});
    const int64_t zc = op_handle("rt_torch_conj", {z});
    CHECK(op("rt_torch_is_conj", {zc}).as_bool());
    const int64_t im = op_handle("rt_torch_imag", {zc});

    const at::Tensor ref = at::imag(at::conj(at::view_as_complex(pairs.ref)));
    REQUIRE(ref.is_neg());
    CHECK(ref[0].item<double>() == -2.0); // what item() and Python's tolist() give
    CHECK(f64_list(im) == aten_f64(ref));
    CHECK(f64_list(im) == std::vector<double>{-2.0, 1.0});
    // The conjugate itself, complex values and all.
    CHECK(complex_list(zc) == aten_re_im(at::conj(at::view_as_complex(pairs.ref))));
    CHECK(complex_list(zc) == std::vector<double>{13.0, -2.0, -2.0, 1.0});
}

TEST_CASE_FIXTURE(LeakChecked, "an efficient zero tensor, which has no storage, reads back as zeros") {
    SKIP_UNLESS_OP("rt_torch__efficientzerotensor");
    const int64_t h = op_handle("rt_torch__efficientzerotensor", {ints({2, 3}), "float64"});
    const at::Tensor ref = at::_efficientzerotensor({2, 3}, at::TensorOptions().dtype(at::kDouble));
    REQUIRE(ref._is_zerotensor());
    CHECK(f64_list(h) == aten_f64(at::zeros({2, 3}, at::kDouble)));
    CHECK(i64_list(h) == std::vector<int64_t>(6, 0));
}

// --- issue 10, item 2: complex values --------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "complex tensors round-trip with their imaginary parts") {
    const at::Tensor ref = at::randn({2, 3}, at::TensorOptions().dtype(at::kComplexDouble));
    const std::vector<double> re_im = aten_re_im(ref);

    const int64_t h128 = from_complex(re_im, {2, 3}, "complex128");
    CHECK(dtype_of_handle(h128) == "complex128");
    CHECK(shape_of(h128) == std::vector<int64_t>{2, 3});
    CHECK(complex_list(h128) == re_im);

    // complex64 by default, as torch.tensor of Python complex numbers.
    const int64_t h64 = from_complex(re_im, {2, 3}, "");
    CHECK(dtype_of_handle(h64) == "complex64");
    CHECK(complex_list(h64) == aten_re_im(ref.to(at::kComplexFloat)));

    // The plugin's values equal ATen's through an operator: z * conj(z) = |z|^2.
    const int64_t prod = op_handle("rt_torch_mul_Tensor", {h128, op_handle("rt_torch_conj", {h128})});
    CHECK(complex_list(prod) == aten_re_im(ref * ref.conj()));
    // A real tensor reads as complex with zero imaginary parts.
    const Input real = upload(at::tensor({1.5, -2.0}, at::kDouble));
    CHECK(complex_list(real.h) == std::vector<double>{1.5, 0.0, -2.0, 0.0});
    // Read as f64, a complex tensor would lose its imaginary parts: refused, naming the reader.
    expect_error(plugin().try_runtime("rt_torch_to_f64_list", {h128}),
                 {"this tensor is complex (ComplexDouble)", "rt_torch_to_complex_list"});
}

TEST_CASE_FIXTURE(LeakChecked, "complex data that does not fit is refused with the reason") {
    expect_error(plugin().try_runtime("rt_torch_from_complex", {floats({1, 2, 3}), ints({1}), "", "", false}),
                 {"re_im", "even number of values, got 3"});
    expect_error(plugin().try_runtime("rt_torch_from_complex", {floats({1, 2, 3, 4}), ints({3}), "", "", false}),
                 {"shape [3] needs 3 values, got 2"});
    expect_error(plugin().try_runtime("rt_torch_from_complex", {floats({1, 2}), ints({1}), "float32", "", false}),
                 {"complex data needs a complex dtype", "got float32"});
    expect_still_works();
}

// --- issue 10, item 3: every dtype's name ------------------------------------------

TEST_CASE_FIXTURE(LeakChecked, "every ScalarType has PyTorch's name both ways") {
    // The names Python PyTorch gives (python_dtype_names.h, by make_dtype_names.py).
    const auto python_name = [](int number) -> std::string {
        for (const auto& d : python_dtypes::kNames)
            if (d.number == number) return d.name;
        return "";
    };
    int checked = 0;
    for (int i = 0; i < static_cast<int>(c10::ScalarType::NumOptions); ++i) {
        const auto type = static_cast<c10::ScalarType>(i);
        if (type == c10::ScalarType::Undefined) continue;
        const std::string name = python_name(i);
        INFO("ScalarType " << c10::toString(type) << " (" << i << "), Python's name '" << name << "'");
        REQUIRE_FALSE(name.empty()); // a dtype Python does not know: regenerate the fixture

        // The plugin makes a tensor of that dtype from its name exactly when ATen can ...
        std::string aten_message;
        try {
            (void)at::empty({2}, at::TensorOptions().dtype(type));
        } catch (const c10::Error& e) {
            aten_message = e.what_without_backtrace();
        }
        const Outcome made = try_op("rt_torch_empty_memory_format", {ints({2}), name});
        if (aten_message.empty()) {
            REQUIRE(made.ok);
            // ... and names it back the same way: name -> parse -> the same type -> name.
            CHECK(dtype_of_handle(made.value.as_i64()) == name);
        } else {
            expect_error(made, {aten_message}); // LibTorch's refusal, never "unknown dtype"
        }
        ++checked;
    }
#if SPL_TORCH_AT_LEAST(2, 15) && !SPL_TORCH_AT_LEAST(2, 16)
    // Built against the pin, Python's list and LibTorch's agree one to one.
    CHECK(checked == static_cast<int>(std::size(python_dtypes::kNames)));
#endif
    // PyTorch's aliases parse to the canonical dtype.
    for (const auto& [alias, canonical] : std::vector<std::pair<std::string, std::string>>{{"float", "float32"},
                                                                                           {"double", "float64"},
                                                                                           {"half", "float16"},
                                                                                           {"long", "int64"},
                                                                                           {"int", "int32"},
                                                                                           {"short", "int16"},
                                                                                           {"cfloat", "complex64"},
                                                                                           {"cdouble", "complex128"},
                                                                                           {"chalf", "complex32"}}) {
        INFO("alias " << alias);
        CHECK(dtype_of_handle(op_handle("rt_torch_empty_memory_format", {ints({1}), alias})) == canonical);
    }
}

TEST_CASE_FIXTURE(LeakChecked, "an unknown dtype is refused with every valid name listed") {
    const Outcome outcome = try_op("rt_torch_empty_memory_format", {ints({1}), "uint128"});
    expect_error(outcome, {"unknown dtype 'uint128'", "valid names: float32, float64"});
#if SPL_TORCH_HAS_UNSIGNED && SPL_TORCH_HAS_FLOAT8
    expect_error(outcome, {"uint16, uint32, uint64", "float8_e4m3fn"});
#endif
}

#if SPL_TORCH_HAS_UNSIGNED
TEST_CASE_FIXTURE(LeakChecked, "unsigned tensors: to(\"uint64\") and values above INT64_MAX") {
    const Input x = upload(at::tensor(std::vector<int64_t>{0, 7, 4294967295LL, std::numeric_limits<int64_t>::max()}));
    const int64_t u64 = op_handle("rt_torch_to_dtype", {x.h, "uint64"});
    CHECK(dtype_of_handle(u64) == "uint64");
    CHECK(i64_list(u64) == aten_i64(x.ref.to(at::kUInt64)));
    const int64_t u32 =
        op_handle("rt_torch_to_dtype", {op_handle("rt_torch_slice_Tensor", {x.h, 0, 0, 3, 1}), "uint32"});
    CHECK(dtype_of_handle(u32) == "uint32");
    CHECK(i64_list(u32) == std::vector<int64_t>{0, 7, 4294967295LL});
    const int64_t u16 =
        op_handle("rt_torch_to_dtype", {op_handle("rt_torch_slice_Tensor", {x.h, 0, 0, 2, 1}), "uint16"});
    CHECK(dtype_of_handle(u16) == "uint16");
    CHECK(i64_list(u16) == std::vector<int64_t>{0, 7});

    // -1 as uint64 is 2**64 - 1: no i64 holds it, so the read-back refuses instead of giving -1.
    const Input minus_one = upload(at::tensor({5, -1}, at::kLong));
    const int64_t big = op_handle("rt_torch_to_dtype", {minus_one.h, "uint64"});
    const auto aten_big = static_cast<uint64_t>(minus_one.ref.to(at::kUInt64).view(at::kLong)[1].item<int64_t>());
    expect_error(plugin().try_runtime("rt_torch_to_i64_list", {big}),
                 {"element 1 of the uint64 tensor is " + std::to_string(aten_big), "more than an i64 holds"});
    // Its bits, as the message suggests.
    CHECK(i64_list(op_handle("rt_torch_view_dtype", {big, "int64"})) == std::vector<int64_t>{5, -1});
}
#endif

// hash_tensor arrived after the unsigned dtypes; the pin has it.
#if SPL_TORCH_AT_LEAST(2, 15)
TEST_CASE_FIXTURE(LeakChecked, "hash_tensor returns a uint64 tensor the plugin names and reads") {
    SKIP_UNLESS_OP("rt_torch_hash_tensor");
    const Input data = upload(at::tensor({1.0, 2.0, 3.0}, at::kFloat));
    const int64_t hash = op_handle("rt_torch_hash_tensor", {data.h});
    const at::Tensor ref = at::hash_tensor(data.ref);
    CHECK(dtype_of_handle(hash) == dtype_of_handle(op_handle("rt_torch_empty_memory_format", {ints({1}), "uint64"})));
    CHECK(std::string(c10::toString(ref.scalar_type())) == "UInt64");
    const auto value = static_cast<uint64_t>(ref.view(at::kLong).item<int64_t>());
    if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        CHECK(i64_list(hash) == std::vector<int64_t>{static_cast<int64_t>(value)});
    else
        expect_error(plugin().try_runtime("rt_torch_to_i64_list", {hash}), {std::to_string(value)});
    CHECK(i64_list(op_handle("rt_torch_view_dtype", {hash, "int64"})) ==
          std::vector<int64_t>{static_cast<int64_t>(value)});
}
#endif

#if SPL_TORCH_HAS_FLOAT8 && SPL_TORCH_AT_LEAST(2, 2)
TEST_CASE_FIXTURE(LeakChecked, "float8 tensors read back their rounded values") {
    const at::Tensor values = at::tensor({0.3, 1.7, -448.0, 500.0, 0.0}, at::kDouble);
    const Input x = upload(values);
    for (const auto& [name, type] :
         std::vector<std::pair<std::string, c10::ScalarType>>{{"float8_e4m3fn", at::kFloat8_e4m3fn},
                                                              {"float8_e5m2", at::kFloat8_e5m2},
                                                              {"float8_e4m3fnuz", at::kFloat8_e4m3fnuz},
                                                              {"float8_e5m2fnuz", at::kFloat8_e5m2fnuz}}) {
        INFO(name);
        const int64_t h = op_handle("rt_torch_to_dtype", {x.h, name});
        CHECK(dtype_of_handle(h) == name);
        // NaN where the format has no such value.
        CHECK(mismatches(f64_list(h), aten_f64(values.to(type)),
                         [](double a, double b) { return a == b || (a != a && b != b); }) == 0);
    }
}
#endif

// --- issue 10, item 16: size overflow and bool bytes ---------------------------------

TEST_CASE_FIXTURE(LeakChecked, "a shape whose element count overflows int64 is a clean error") {
    const int64_t big = int64_t{1} << 32;
    for (const char* fn : {"rt_torch_from_f64", "rt_torch_from_i64"}) {
        INFO(fn);
        const Arg empty = std::string(fn) == "rt_torch_from_f64" ? floats({}) : ints({});
        expect_error(plugin().try_runtime(fn, {empty, ints({big, big}), "", "", false}),
                     {"shape [4294967296, 4294967296] has too many elements", "overflows int64"});
    }
    expect_error(plugin().try_runtime("rt_torch_from_bool", {bools({}), ints({big, big, 4}), ""}),
                 {"has too many elements"});
    expect_error(plugin().try_runtime("rt_torch_from_complex", {floats({}), ints({big, big}), "", "", false}),
                 {"has too many elements"});
    // A product that overflows only past its first factors, and one that wraps to exactly 0 in 64 bits.
    expect_error(plugin().try_runtime("rt_torch_from_f64", {floats({}), ints({3, big, big}), "", "", false}),
                 {"overflows int64"});
    expect_error(plugin().try_runtime("rt_torch_from_f64", {floats({}), ints({big, big, 0}), "", "", false}),
                 {"overflows int64"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "bool storage reads any non-zero byte as true") {
    SKIP_UNLESS_OP("rt_torch_view_dtype");
    // Bytes that are no valid bool, made on purpose: uint8 storage viewed as bool.
    const Input bytes = upload(at::tensor({0, 1, 190, 255, 2}, at::kByte));
    const int64_t b = op_handle("rt_torch_view_dtype", {bytes.h, "bool"});
    CHECK(dtype_of_handle(b) == "bool");
    const at::Tensor ref = bytes.ref.ne(0); // PyTorch: view(torch.bool).tolist() == [False, True, True, True, True]
    std::vector<bool> want;
    for (int64_t i = 0; i < ref.numel(); ++i) want.push_back(ref[i].item<bool>());
    CHECK(bool_list(b) == want);
    CHECK(bool_list(b) == std::vector<bool>{false, true, true, true, true});
}

TEST_CASE_FIXTURE(LeakChecked, "a bool tensor whose storage set_ or resize_ grew reads a bool per byte") {
    SKIP_UNLESS_OP("rt_torch_view_dtype");
    const int64_t source = plugin().runtime("rt_torch_from_bool", {bools({true, false}), ints({2}), ""}).as_i64();
    const int64_t grown = plugin().runtime("rt_torch_from_bool", {bools({}), ints({0}), ""}).as_i64();
    // set_ onto 4096 elements of source's storage: the storage grows, its new bytes uninitialised.
    op_handle("rt_torch_set__source_Tensor_storage_offset", {grown, source, 0, ints({4096})});
    REQUIRE(shape_of(grown) == std::vector<int64_t>{4096});
    const std::vector<bool> values = bool_list(grown);
    const std::vector<int64_t> raw = i64_list(op_handle("rt_torch_view_dtype", {grown, "uint8"}));
    REQUIRE(values.size() == 4096);
    REQUIRE(raw.size() == 4096);
    CHECK(mismatches(values, raw, [](bool v, int64_t byte) { return v == (byte != 0); }) == 0);
    CHECK(values[0]);
    CHECK_FALSE(values[1]);

    op_handle("rt_torch_resize_", {source, ints({10000})});
    const std::vector<bool> resized = bool_list(source);
    const std::vector<int64_t> resized_raw = i64_list(op_handle("rt_torch_view_dtype", {source, "uint8"}));
    REQUIRE(resized.size() == 10000);
    CHECK(mismatches(resized, resized_raw, [](bool v, int64_t byte) { return v == (byte != 0); }) == 0);
}
