// Tensors from and to flat Simple arrays.
//
// Complex values cross as [f64] with re and im interleaved (re0, im0, re1,
// im1, ...): the memory layout of c10::complex<double> (and of view_as_real),
// so one copy makes the tensor, and no new kind of boxed value is needed: the
// ABI's f64 arrays already carry them.
#include "extras/extra_function.h"

#include "core/libtorch_compat.h"
#include "core/shapes_only.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace {

// a * b, or an error naming `what` when the product does not fit in int64
// (a signed overflow would be undefined behaviour, and LibTorch's own check
// comes only later, in the allocator).
int64_t checked_multiply(int64_t a, int64_t b, const std::string& what) {
    int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) throw spl::SplError(what + ": the size overflows int64");
    return product;
}

std::string shape_text(const std::vector<int64_t>& sizes) {
    std::string dims;
    for (size_t i = 0; i < sizes.size(); ++i) dims += (i ? ", " : "") + std::to_string(sizes[i]);
    return "[" + dims + "]";
}

std::vector<int64_t> checked_shape(SplI64Array shape, int64_t nvalues) {
    if (shape.len < 0 || (shape.len > 0 && !shape.data)) throw spl::SplError("shape: a list of sizes is required");
    std::vector<int64_t> sizes(shape.data, shape.data + shape.len);
    int64_t numel = 1;
    for (int64_t s : sizes) {
        if (s < 0) throw spl::SplError("shape: sizes must be non-negative");
        numel = checked_multiply(numel, s, "shape " + shape_text(sizes) + " has too many elements");
    }
    if (numel != nvalues)
        throw spl::SplError("shape " + shape_text(sizes) + " needs " + std::to_string(numel) + " values, got " +
                            std::to_string(nvalues));
    return sizes;
}

// Copies `n` host values (each `value_bytes` bytes long) into a fresh CPU
// tensor of `host_type`, then converts to the requested dtype and device.
int64_t make_tensor(const void* data, int64_t n, size_t value_bytes, SplI64Array shape, c10::ScalarType host_type,
                    c10::ScalarType target, const char* device, bool requires_grad) {
    const auto sizes = checked_shape(shape, n);
    at::Tensor host = at::empty(sizes, at::TensorOptions().dtype(host_type));
    const int64_t bytes = checked_multiply(n, static_cast<int64_t>(value_bytes), "data");
    if (n > 0) std::memcpy(host.data_ptr(), data, static_cast<size_t>(bytes));
    // "" asks for the default; NULL is no text at all (spl_plugin.h), an error.
    const auto where = !spl::required_text(device, "device").empty() ? spl::parse_device(device)
                                                                     : spl::made_on(c10::Device(c10::kCPU));
    at::Tensor result = host.to(where, target);
    if (requires_grad) result.requires_grad_(true);
    return spl::new_handle(std::move(result));
}

template <class T>
int64_t make_from(const T* data, int64_t len, SplI64Array shape, c10::ScalarType host_type, const char* dtype,
                  const char* device, bool requires_grad) {
    if (len < 0 || (len > 0 && !data)) throw spl::SplError("data: a list of values is required");
    const auto target = !spl::required_text(dtype, "dtype").empty() ? spl::parse_dtype(dtype) : host_type;
    return make_tensor(data, len, sizeof(T), shape, host_type, target, device, requires_grad);
}

// The tensor behind `handle` as dense CPU values of `type`, ready to be read
// element by element. Lazy view state is made real first: a conjugate or
// negative view (conj(), _neg_view()) only carries a flag, its storage holds
// the values un-negated, and `to`/`contiguous` return such a tensor as it is
// when dtype, device and layout already match; an efficient zero tensor
// (_efficientzerotensor) has no storage at all.
at::Tensor readable(int64_t handle, c10::ScalarType type) {
    at::Tensor t = spl::tensor(handle, "tensor").detach();
    if (t._is_zerotensor()) t = at::zeros(t.sizes(), t.options());
    return t.resolve_conj().resolve_neg().to(c10::kCPU, type).contiguous();
}

// Boxes every element of a dense CPU tensor, read as `Stored`.
template <class Stored, class Box>
SplValue boxed_values(const at::Tensor& host, Box box) {
    const int64_t n = host.numel();
    const auto* data = static_cast<const Stored*>(host.data_ptr());
    SplValue* items = spl::ResultArena::current().values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) items[i] = box(data[i], i);
    return spl::v_array(items, n);
}

SplValue i64_values(int64_t handle) {
#if SPL_TORCH_HAS_UNSIGNED
    // uint64 values above INT64_MAX have no i64: refuse them rather than wrap
    // (a silent negative number). PyTorch's tolist gives Python ints; Simple
    // has no unsigned 64-bit integer, so the message names the ways out.
    if (spl::tensor(handle, "tensor").scalar_type() == c10::kUInt64)
        return boxed_values<uint64_t>(readable(handle, c10::kUInt64), [](uint64_t v, int64_t i) {
            if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                throw spl::SplError("element " + std::to_string(i) + " of the uint64 tensor is " + std::to_string(v) +
                                    ", more than an i64 holds; read view(\"int64\") for its bits or "
                                    "to(\"float64\") for its approximate value");
            return spl::v_i64(static_cast<int64_t>(v));
        });
#endif
    return boxed_values<int64_t>(readable(handle, c10::kLong), [](int64_t v, int64_t) { return spl::v_i64(v); });
}

// Bool storage is read as bytes, any non-zero byte being true, as PyTorch
// does: a byte that is neither 0 nor 1 (storage grown by set_ or resize_, a
// uint8 tensor viewed as bool) is not a valid `bool` object to load.
SplValue bool_values(int64_t handle) {
    return boxed_values<uint8_t>(readable(handle, c10::kBool),
                                 [](uint8_t byte, int64_t) { return spl::v_bool(byte != 0); });
}

SplValue complex_values(int64_t handle) {
    const at::Tensor host = readable(handle, c10::kComplexDouble);
    const int64_t n = host.numel();
    const int64_t len = checked_multiply(n, 2, "tensor");
    const auto* data = static_cast<const c10::complex<double>*>(host.data_ptr());
    SplValue* items = spl::ResultArena::current().values(static_cast<size_t>(len));
    for (int64_t i = 0; i < n; ++i) {
        items[2 * i] = spl::v_f64(data[i].real());
        items[2 * i + 1] = spl::v_f64(data[i].imag());
    }
    return spl::v_array(items, len);
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_from_f64(SplF64Array data, SplI64Array shape, const char* dtype, const char* device,
                                           bool requires_grad) {
    return spl::guarded<int64_t>(__func__, [&] {
        return make_from(data.data, data.len, shape, c10::kDouble,
                         spl::required_text(dtype, "dtype").empty() ? "float32" : dtype, device, requires_grad);
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_from_i64(SplI64Array data, SplI64Array shape, const char* dtype, const char* device,
                                           bool requires_grad) {
    return spl::guarded<int64_t>(
        __func__, [&] { return make_from(data.data, data.len, shape, c10::kLong, dtype, device, requires_grad); });
}

SPL_TORCH_EXPORT int64_t rt_torch_from_bool(SplBoolArray data, SplI64Array shape, const char* device) {
    return spl::guarded<int64_t>(
        __func__, [&] { return make_from(data.data, data.len, shape, c10::kBool, "bool", device, false); });
}

SPL_TORCH_EXPORT int64_t rt_torch_from_complex(SplF64Array re_im, SplI64Array shape, const char* dtype,
                                               const char* device, bool requires_grad) {
    return spl::guarded<int64_t>(__func__, [&] {
        if (re_im.len < 0 || (re_im.len > 0 && !re_im.data)) throw spl::SplError("re_im: a list of values is required");
        if (re_im.len % 2 != 0)
            throw spl::SplError("re_im: needs (re, im) pairs, an even number of values, got " +
                                std::to_string(re_im.len));
        const auto target = !spl::required_text(dtype, "dtype").empty() ? spl::parse_dtype(dtype) : c10::kComplexFloat;
        // A real dtype would drop every imaginary part (LibTorch only warns).
        if (!c10::isComplexType(target))
            throw spl::SplError(std::string("dtype: complex data needs a complex dtype (complex64, complex128, "
                                            "complex32), got ") +
                                spl::dtype_name(target));
        return make_tensor(re_im.data, re_im.len / 2, 2 * sizeof(double), shape, c10::kComplexDouble, target, device,
                           requires_grad);
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_f64_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        // Converted to f64, a complex value would lose its imaginary part without a word.
        TORCH_CHECK(!c10::isComplexType(spl::tensor(t, "tensor").scalar_type()),
                    "rt_torch_to_f64_list: this tensor is complex (", spl::tensor(t, "tensor").scalar_type(),
                    "); read it with rt_torch_to_complex_list, which gives the real and imaginary parts in turn");
        spl::ResultArena::current().reset();
        return boxed_values<double>(readable(t, c10::kDouble), [](double v, int64_t) { return spl::v_f64(v); });
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_i64_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        return i64_values(t);
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_bool_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        return bool_values(t);
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_to_complex_list(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        return complex_values(t);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_from_f64, "data", "shape", "dtype", "device", "requires_grad")
SPL_EXTRA(rt_torch_from_i64, "data", "shape", "dtype", "device", "requires_grad")
SPL_EXTRA(rt_torch_from_bool, "data", "shape", "device")
SPL_EXTRA(rt_torch_from_complex, "re_im", "shape", "dtype", "device", "requires_grad")
// The lists come back as boxed arrays (SplValue): their Simple types are stated.
SPL_EXTRA_RETURNS(rt_torch_to_f64_list, "[f64]", "t")
SPL_EXTRA_RETURNS(rt_torch_to_i64_list, "[i64]", "t")
SPL_EXTRA_RETURNS(rt_torch_to_bool_list, "[bool]", "t")
SPL_EXTRA_RETURNS(rt_torch_to_complex_list, "[f64]", "t")
