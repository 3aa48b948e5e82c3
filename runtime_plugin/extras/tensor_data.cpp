// Tensors from and to flat Simple arrays.
#include "extras/extra_function.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>

#include <cstring>

namespace {

std::vector<int64_t> checked_shape(SplI64Array shape, int64_t nvalues) {
    if (shape.len < 0 || (shape.len > 0 && !shape.data)) throw spl::SplError("shape: a list of sizes is required");
    std::vector<int64_t> sizes(shape.data, shape.data + shape.len);
    int64_t numel = 1;
    for (int64_t s : sizes) {
        if (s < 0) throw spl::SplError("shape: sizes must be non-negative");
        numel *= s;
    }
    if (numel != nvalues) {
        std::string dims;
        for (size_t i = 0; i < sizes.size(); ++i) dims += (i ? ", " : "") + std::to_string(sizes[i]);
        throw spl::SplError("shape [" + dims + "] needs " + std::to_string(numel) + " values, got " +
                            std::to_string(nvalues));
    }
    return sizes;
}

// Copies `n` host values into a fresh CPU tensor of their own type, then
// converts to the requested dtype and device.
template <class T>
int64_t make_tensor(const T* data, int64_t n, SplI64Array shape, c10::ScalarType host_type, const char* dtype,
                    const char* device, bool requires_grad) {
    if (n < 0 || (n > 0 && !data)) throw spl::SplError("data: a list of values is required");
    const auto sizes = checked_shape(shape, n);
    at::Tensor host = at::empty(sizes, at::TensorOptions().dtype(host_type));
    if (n > 0) std::memcpy(host.data_ptr(), data, sizeof(T) * n);
    // "" asks for the default; NULL is no text at all (spl_plugin.h), an error.
    const auto target = !spl::required_text(dtype, "dtype").empty() ? spl::parse_dtype(dtype) : host_type;
    const auto where = !spl::required_text(device, "device").empty() ? spl::parse_device(device) : c10::Device(c10::kCPU);
    at::Tensor result = host.to(where, target);
    if (requires_grad) result.requires_grad_(true);
    return spl::new_handle(std::move(result));
}

template <class T>
SplValue to_values(int64_t handle, c10::ScalarType type, SplValue (*box)(T)) {
    spl::ResultArena::current().reset();
    const at::Tensor host = spl::tensor(handle, "tensor").detach().to(c10::kCPU, type).contiguous();
    const int64_t n = host.numel();
    const T* data = host.data_ptr<T>();
    SplValue* items = spl::ResultArena::current().values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) items[i] = box(data[i]);
    return spl::v_array(items, n);
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_from_f64(SplF64Array data, SplI64Array shape, const char* dtype, const char* device,
                                          bool requires_grad) {
    return spl::guarded<int64_t>(__func__, [&] {
        return make_tensor(data.data, data.len, shape, c10::kDouble, spl::required_text(dtype, "dtype").empty() ? "float32" : dtype, device,
                           requires_grad);
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_from_i64(SplI64Array data, SplI64Array shape, const char* dtype, const char* device,
                                          bool requires_grad) {
    return spl::guarded<int64_t>(__func__, [&] { return make_tensor(data.data, data.len, shape, c10::kLong, dtype, device, requires_grad); });
}

SPL_TORCH_EXPORT int64_t rt_torch_from_bool(SplBoolArray data, SplI64Array shape, const char* device) {
    return spl::guarded<int64_t>(__func__, [&] { return make_tensor(data.data, data.len, shape, c10::kBool, "bool", device, false); });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_f64_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] { return to_values<double>(t, c10::kDouble, spl::v_f64); });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_i64_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] { return to_values<int64_t>(t, c10::kLong, spl::v_i64); });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_bool_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] { return to_values<bool>(t, c10::kBool, spl::v_bool); });
}

} // extern "C"

SPL_EXTRA(rt_torch_from_f64,
          "extern fn rt_torch_from_f64(data: [f64], shape: [i64], dtype: text, device: text, requires_grad: bool) -> i64",
          "i64", {"data", "[f64]", nullptr}, {"shape", "[i64]", nullptr}, {"dtype", "text", nullptr},
          {"device", "text", nullptr}, {"requires_grad", "bool", nullptr})
SPL_EXTRA(rt_torch_from_i64,
          "extern fn rt_torch_from_i64(data: [i64], shape: [i64], dtype: text, device: text, requires_grad: bool) -> i64",
          "i64", {"data", "[i64]", nullptr}, {"shape", "[i64]", nullptr}, {"dtype", "text", nullptr},
          {"device", "text", nullptr}, {"requires_grad", "bool", nullptr})
SPL_EXTRA(rt_torch_from_bool, "extern fn rt_torch_from_bool(data: [bool], shape: [i64], device: text) -> i64", "i64",
          {"data", "[bool]", nullptr}, {"shape", "[i64]", nullptr}, {"device", "text", nullptr})
SPL_EXTRA(rt_torch_to_f64_list, "extern fn rt_torch_to_f64_list(t: i64) -> [f64]", "[f64]", {"t", "i64", nullptr})
SPL_EXTRA(rt_torch_to_i64_list, "extern fn rt_torch_to_i64_list(t: i64) -> [i64]", "[i64]", {"t", "i64", nullptr})
SPL_EXTRA(rt_torch_to_bool_list, "extern fn rt_torch_to_bool_list(t: i64) -> [bool]", "[bool]", {"t", "i64", nullptr})
