// What every plugin test uses: the host, handle/tensor bridges, leak checks, dtype names.
#include "test_support.h"

#include <ATen/CPUGeneratorImpl.h>

#include <sstream>
#include <stdexcept>
#include <utility>

namespace plugin_test {

plugin_host::Plugin& plugin() { return plugin_host::Plugin::instance(); }

bool has_op(const std::string& name) { return plugin().info().find(name.c_str()) != nullptr; }

Value op(const std::string& name, const std::vector<Arg>& args) { return plugin().op(name, args); }
int64_t op_handle(const std::string& name, const std::vector<Arg>& args) { return plugin().op_handle(name, args); }
Outcome try_op(const std::string& name, const std::vector<Arg>& args) { return plugin().try_op(name, args); }

namespace {

struct DtypeEntry {
    const char* name;
    c10::ScalarType type;
};
constexpr DtypeEntry kDtypes[] = {
    {"float32", at::kFloat}, {"float64", at::kDouble}, {"float16", at::kHalf}, {"bfloat16", at::kBFloat16},
    {"int64", at::kLong},    {"int32", at::kInt},      {"int16", at::kShort},  {"int8", at::kChar},
    {"uint8", at::kByte},    {"bool", at::kBool},
};

std::string shape_text(at::IntArrayRef sizes) {
    std::ostringstream out;
    out << sizes;
    return out.str();
}

std::string tensor_text(const at::Tensor& t) {
    std::ostringstream out;
    out << t;
    return out.str();
}

} // namespace

c10::ScalarType dtype_of(const std::string& name) {
    for (const DtypeEntry& e : kDtypes)
        if (name == e.name) return e.type;
    throw std::runtime_error("the tests know no dtype '" + name + "'");
}

std::string dtype_name(c10::ScalarType type) {
    for (const DtypeEntry& e : kDtypes)
        if (type == e.type) return e.name;
    throw std::runtime_error(std::string("the tests know no name for dtype ") + c10::toString(type));
}

Input upload(const at::Tensor& ref, bool requires_grad) {
    const at::Tensor flat = ref.detach().reshape({-1}).contiguous();
    const Arg shape = ints(ref.sizes().vec());
    int64_t h;
    if (ref.scalar_type() == at::kBool) {
        const at::Tensor b = flat.to(at::kByte);
        h = plugin()
                .runtime(
                    "rt_torch_from_bool",
                    {bools(std::vector<bool>(b.data_ptr<uint8_t>(), b.data_ptr<uint8_t>() + b.numel())), shape, ""})
                .as_i64();
    } else if (at::isIntegralType(ref.scalar_type(), false)) {
        const at::Tensor l = flat.to(at::kLong);
        h = plugin()
                .runtime("rt_torch_from_i64",
                         {ints(std::vector<int64_t>(l.data_ptr<int64_t>(), l.data_ptr<int64_t>() + l.numel())), shape,
                          dtype_name(ref.scalar_type()), "", requires_grad})
                .as_i64();
    } else {
        const at::Tensor d = flat.to(at::kDouble);
        h = plugin()
                .runtime("rt_torch_from_f64",
                         {floats(std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel())), shape,
                          dtype_name(ref.scalar_type()), "", requires_grad})
                .as_i64();
    }
    return Input{h, ref};
}

at::Tensor sample(at::IntArrayRef shape, uint64_t seed, c10::ScalarType type) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    return at::randn(shape, gen, at::TensorOptions().dtype(at::kFloat)).to(type);
}

Input input(at::IntArrayRef shape, uint64_t seed, c10::ScalarType type) { return upload(sample(shape, seed, type)); }

std::vector<int64_t> shape_of(int64_t handle) { return plugin().runtime("rt_torch_shape", {handle}).as_i64_list(); }

std::string dtype_of_handle(int64_t handle) { return plugin().runtime("rt_torch_dtype", {handle}).as_text(); }

std::vector<int64_t> handles_of(const Value& array) { return array.as_i64_list(); }

at::Tensor to_aten(int64_t handle) {
    const std::vector<int64_t> shape = shape_of(handle);
    const c10::ScalarType type = dtype_of(dtype_of_handle(handle));
    at::Tensor values;
    if (type == at::kBool) {
        std::vector<uint8_t> bytes;
        for (bool b : plugin().runtime("rt_torch_to_bool_list", {handle}).as_bool_list()) bytes.push_back(b);
        values = at::tensor(bytes, at::kByte);
    } else if (at::isIntegralType(type, false)) {
        values = at::tensor(plugin().runtime("rt_torch_to_i64_list", {handle}).as_i64_list(), at::kLong);
    } else {
        values = at::tensor(plugin().runtime("rt_torch_to_f64_list", {handle}).as_f64_list(), at::kDouble);
    }
    return values.reshape(shape).to(type);
}

namespace {

// The integer type as wide as a floating one, to compare its values' bits.
c10::ScalarType bits_type(const at::Tensor& t) {
    switch (t.element_size()) {
    case 2: return at::kShort;
    case 4: return at::kInt;
    default: return at::kLong;
    }
}

std::string count_text(const at::Tensor& differ, const char* what) {
    const int64_t n = differ.sum().item<int64_t>();
    return n ? std::to_string(n) + " of " + std::to_string(differ.numel()) + " values " + what : "";
}

} // namespace

std::string tensor_difference(const at::Tensor& got_in, const at::Tensor& expected_in) {
    const at::Tensor got = got_in.detach().contiguous(), expected = expected_in.detach().contiguous();
    if (got.scalar_type() != expected.scalar_type())
        return "dtype " + dtype_name(got.scalar_type()) + ", want " + dtype_name(expected.scalar_type());
    if (got.sizes() != expected.sizes())
        return "shape " + shape_text(got.sizes()) + ", want " + shape_text(expected.sizes());
    if (!at::isFloatingType(expected.scalar_type())) return count_text(got != expected, "differ");
    // NaN in the same places; every other value the same bits (a NaN's payload aside).
    const at::Tensor got_nan = at::isnan(got), want_nan = at::isnan(expected);
    const std::string nan_places = count_text(got_nan != want_nan, "NaN on one side only");
    if (!nan_places.empty()) return nan_places;
    const at::Tensor got_bits = got.masked_fill(got_nan, 0).view(bits_type(got));
    const at::Tensor want_bits = expected.masked_fill(want_nan, 0).view(bits_type(expected));
    return count_text(got_bits != want_bits, "not the same bits");
}

void expect_same(int64_t handle, const at::Tensor& expected) {
    const at::Tensor got = to_aten(handle);
    INFO("plugin: " << tensor_text(got));
    INFO("ATen:   " << tensor_text(expected));
    CHECK(tensor_difference(got, expected) == "");
}

void expect_op(const std::string& name, const std::vector<Arg>& args, const at::Tensor& expected) {
    INFO("operator " << name);
    expect_same(op_handle(name, args), expected);
}

void expect_error(const Outcome& outcome, std::initializer_list<std::string> fragments) {
    INFO("error text: " << outcome.error);
    REQUIRE_FALSE(outcome.ok);
    for (const std::string& fragment : fragments) {
        INFO("expected fragment: " << fragment);
        CHECK(outcome.error.find(fragment) != std::string::npos);
    }
}

void expect_still_works() {
    const Input a = input({2, 3}, 11), b = input({3}, 12);
    expect_op("rt_torch_add_Tensor", {a.h, b.h}, at::add(a.ref, b.ref));
}

LeakChecked::LeakChecked() : live_at_start_(plugin().live_handles()), results_mark_(plugin().results_seen()) {}

LeakChecked::~LeakChecked() {
    try {
        plugin_host::Plugin& p = plugin();
        // Every i64 a result carried since the start; the live ones are our handles.
        for (int64_t h : p.results_since(results_mark_))
            if (p.is_live(h)) p.free(h);
        CHECK(p.live_handles() == live_at_start_);
    } catch (const std::exception& e) {
        FAIL_CHECK("cleanup failed: " << e.what());
    }
}

} // namespace plugin_test
