// rt_torch_format against Python's str(t): byte-identical text for every case
// tests/plugin/make_print_fixtures.py records (print_fixtures.h), each tensor
// rebuilt here from its recipe with ATen and the plugin's own operators.
#include "print_fixtures.h"
#include "test_support.h"

#include <stdexcept>

using namespace plugin_test;

namespace {

std::string format(int64_t h) { return plugin().runtime("rt_torch_format", {h}).as_text(); }

// The base tensor of a case, built with ATen from its exact values.
at::Tensor base_of(const print_fixtures::Case& c) {
    const c10::ScalarType type = dtype_of(c.dtype);
    const at::Tensor values =
        at::isFloatingType(type) ? at::tensor(c.floats, at::kDouble) : at::tensor(c.ints, at::kLong);
    return values.reshape(c.shape).to(type);
}

// A 0-d tensor holding `value`, as Python wraps the number in `t + 1`
// (add.Tensor, hence AddBackward0; add.Scalar would record AddBackward1).
int64_t wrapped_number(int64_t value) { return upload(at::scalar_tensor(value, at::kLong)).h; }

// The steps make_print_fixtures.py knows, each through the plugin operator
// Python's step calls.
int64_t apply_step(const std::string& step, int64_t h) {
    if (step == "view_as_complex") return op_handle("rt_torch_view_as_complex", {h});
    if (step == "conj") return op_handle("rt_torch_conj", {h});
    if (step == "neg_view") return op_handle("rt_torch__neg_view", {h});
    if (step == "transpose") return op_handle("rt_torch_transpose_int", {h, 0, 1});
    if (step == "add_one") return op_handle("rt_torch_add_Tensor", {h, wrapped_number(1)});
    if (step == "mul_two") return op_handle("rt_torch_mul_Tensor", {h, wrapped_number(2)});
    if (step == "sum") return op_handle("rt_torch_sum", {h});
    if (step == "clone") return op_handle("rt_torch_aten_clone", {h});
    if (step == "no_grad_slice" || step == "no_grad_add_") {
        const bool previous = plugin().runtime("rt_torch_no_grad_enter").as_bool();
        const int64_t result = step == "no_grad_slice" ? op_handle("rt_torch_slice_Tensor", {h, 0, 0, 2})
                                                       : op_handle("rt_torch_add__Scalar", {h, 1});
        plugin().runtime("rt_torch_no_grad_exit", {previous});
        return result;
    }
    if (step == "to_meta") return op_handle("rt_torch_to_device", {h, "meta", dtype_of_handle(h)});
    if (step == "zerotensor")
        return op_handle("rt_torch__efficientzerotensor", {ints(shape_of(h)), dtype_of_handle(h)});
    if (step == "nested_rows") {
        std::vector<Arg> rows;
        for (int64_t row : handles_of(op("rt_torch_unbind_int", {h, 0})))
            rows.emplace_back(static_cast<long long>(row));
        return op_handle("rt_torch__nested_tensor_from_tensor_list", {list(rows)});
    }
    if (step == "to_sparse") return op_handle("rt_torch_to_sparse", {h});
    if (step == "to_sparse_csr") return op_handle("rt_torch_to_sparse", {h, "sparse_csr"});
    if (step == "to_sparse_csc") return op_handle("rt_torch_to_sparse", {h, "sparse_csc"});
    if (step == "to_mkldnn") return op_handle("rt_torch_to_mkldnn", {h});
    if (step == "quantize") return op_handle("rt_torch_quantize_per_tensor", {h, 0.1, 3, "quint8"});
    if (step.rfind("to:", 0) == 0) return op_handle("rt_torch_to_dtype", {h, step.substr(3)});
    if (step.rfind("quantize@", 0) == 0) // the scale as Python wrote it; strtod reads the same double
        return op_handle("rt_torch_quantize_per_tensor", {h, std::stod(step.substr(9)), 3, "quint8"});
    if (step == "quantize_per_channel") {
        const int64_t scales = upload(at::tensor({0.1, 0.25}, at::kDouble)).h;
        const int64_t zero_points = upload(at::tensor({0, 2}, at::kLong)).h;
        return op_handle("rt_torch_quantize_per_channel", {h, scales, zero_points, 0, "qint8"});
    }
    throw std::runtime_error("the printing test knows no step '" + step + "'");
}

// Why a case cannot be built on this LibTorch (an older one lacks a dtype, an
// operator or an overload its recipe needs: 1.13 has no float8 and no
// to_sparse(layout)), or "" when it can. Only these reasons skip a case; any
// other failure to build it fails the test, and on the fixtures' own
// LibTorch nothing may be missing, so there every case runs.
std::string missing_here(const std::string& error) {
    if (plugin().runtime("rt_torch_version").as_text() == print_fixtures::kLibTorchVersion) return "";
    for (const char* reason :
         {"unknown dtype '", "the tests know no dtype '", "the plugin has no function ", " were given; signature: "})
        if (error.find(reason) != std::string::npos) return error;
    return "";
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "rt_torch_format prints every fixture exactly as Python's str(t)") {
    for (const print_fixtures::Case& c : print_fixtures::cases()) {
        INFO("case: " << std::string(c.name));
        int64_t h = 0;
        try {
            h = upload(base_of(c), c.requires_grad).h;
            for (const std::string& step : c.steps) h = apply_step(step, h);
        } catch (const std::exception& e) {
            const std::string why = missing_here(e.what());
            if (why.empty()) throw;
            MESSAGE("skipped " << std::string(c.name) << ": this LibTorch lacks what it needs (" << why << ")");
            continue;
        }
        const std::string got = format(h);
        INFO("expected:\n" << c.expected);
        INFO("got:\n" << got);
        CHECK(got == c.expected);
    }
}
