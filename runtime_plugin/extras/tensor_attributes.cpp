// What PyTorch's Tensor attributes say about a tensor's kind and memory: `x.layout`,
// `x.is_sparse`, `x.is_quantized`, `x.is_meta` ... (torch/csrc/autograd/python_variable.cpp's
// getters), `x.stride()`, `x.data_ptr()`, `x.grad_dtype`, `x.name`, `x.is_shared()`, `x.share_memory_()`.
#include "core/enum_names.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"

#include <ATen/MapAllocator.h>
#if __has_include(<ATen/StorageUtils.h>)
#include <ATen/StorageUtils.h> // at::share_memory_ (LibTorch 2.x)
#define SPL_TORCH_HAS_SHARE_MEMORY 1
#else
#define SPL_TORCH_HAS_SHARE_MEMORY 0
#endif

#include <string>
#include <type_traits>
#include <utility>

namespace {

// What a LibTorch's Tensor has, found by its members: grad_dtype (a recent autograd setting)
// and const_data_ptr (2.1) are absent from older ones.
template <class T, class = void>
struct HasGradDtype : std::false_type {};
template <class T>
struct HasGradDtype<T, std::void_t<decltype(std::declval<const T&>().grad_dtype())>> : std::true_type {};
template <class T, class = void>
struct HasConstDataPtr : std::false_type {};
template <class T>
struct HasConstDataPtr<T, std::void_t<decltype(std::declval<const T&>().const_data_ptr())>> : std::true_type {};

[[noreturn]] void needs_newer_libtorch(const char* what) {
    throw spl::SplError(std::string(what) + " needs a LibTorch that has it (2.15 does), and this is " +
                        SPL_TORCH_LIBTORCH_VERSION);
}

template <class T = at::Tensor>
const char* grad_dtype_name(const T& self) {
    if constexpr (HasGradDtype<T>::value) {
        const auto type = self.grad_dtype();
        return type ? spl::dtype_name(*type) : "";
    } else {
        needs_newer_libtorch("x.grad_dtype");
    }
}

template <class T = at::Tensor>
void set_grad_dtype(T& self, const std::string& name) {
    if constexpr (HasGradDtype<T>::value) {
        using Optional = decltype(self.grad_dtype());
        self.set_grad_dtype(name.empty() ? Optional() : Optional(spl::parse_dtype(name)));
    } else {
        needs_newer_libtorch("x.grad_dtype");
    }
}

template <class T = at::Tensor>
const void* first_element(const T& self, bool const_access) {
    if constexpr (HasConstDataPtr<T>::value) {
        if (const_access) return self.const_data_ptr();
    }
    return self.data_ptr();
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT const char* rt_torch_layout(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] { return spl::layout_name(spl::tensor(t, "t").layout()); });
}

// The tensor's `is_<kind>` attribute: cpu, meta, sparse, sparse_csr, quantized, nested, mkldnn,
// xpu, mps, ipu, xla, maia, mtia, vulkan.
SPL_TORCH_EXPORT bool rt_torch_tensor_is(int64_t t, const char* kind) {
    return spl::guarded<bool>(__func__, [&] {
        const at::Tensor& self = spl::tensor(t, "t");
        const std::string k(kind);
        if (k == "cpu") return self.is_cpu();
        if (k == "meta") return self.is_meta();
        if (k == "sparse") return self.is_sparse();
        if (k == "sparse_csr") return self.is_sparse_csr();
        if (k == "quantized") return self.is_quantized();
        if (k == "nested") return self.is_nested();
        if (k == "mkldnn") return self.is_mkldnn();
        if (k == "xpu") return self.is_xpu();
        if (k == "mps") return self.is_mps();
        if (k == "ipu") return self.is_ipu();
        if (k == "xla") return self.is_xla();
#if SPL_TORCH_AT_LEAST(2, 5)
        if (k == "maia") return self.is_maia();
        if (k == "mtia") return self.is_mtia();
#else
        if (k == "maia" || k == "mtia") return false; // no such backends in this LibTorch
#endif
        if (k == "vulkan") return self.is_vulkan();
        TORCH_CHECK(false, "tensor_is: unknown kind \"", k, "\"");
    });
}

// x.stride(): the strides of every dimension (ATen's error for a tensor without strides).
SPL_TORCH_EXPORT SplValue rt_torch_strides(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        const auto strides = spl::tensor(t, "t").strides();
        spl::ResultArena::current().reset();
        SplValue* items = spl::ResultArena::current().values(strides.size());
        for (size_t i = 0; i < strides.size(); ++i) items[i] = spl::v_i64(strides[i]);
        return spl::v_array(items, static_cast<int64_t>(strides.size()));
    });
}

// x.data_ptr() / x.const_data_ptr(): the address of the first element, as an integer.
SPL_TORCH_EXPORT int64_t rt_torch_data_ptr(int64_t t, bool const_access) {
    return spl::guarded<int64_t>(__func__, [&] {
        const void* ptr = first_element(spl::tensor(t, "t"), const_access);
        return static_cast<int64_t>(reinterpret_cast<intptr_t>(ptr));
    });
}

// x.grad_dtype: the dtype autograd casts this tensor's gradients to, "" for None (any dtype).
SPL_TORCH_EXPORT const char* rt_torch_grad_dtype(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] { return grad_dtype_name(spl::tensor(t, "t")); });
}

// `x.grad_dtype = d` ("" for None): leaf tensors only (ATen's error otherwise).
SPL_TORCH_EXPORT void rt_torch_set_grad_dtype(int64_t t, const char* dtype) {
    spl::guarded<void>(__func__, [&] { set_grad_dtype(spl::tensor(t, "t"), dtype); });
}

// x.name: the autograd name a tracer gives a tensor ("" for none, PyTorch's None).
SPL_TORCH_EXPORT const char* rt_torch_tensor_name(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::tensor(t, "t").name());
    });
}

// x.is_shared(): a CUDA tensor, or one whose storage is in shared memory (a MapAllocator's, as
// share_memory_ makes), as PyTorch's UntypedStorage.is_shared.
SPL_TORCH_EXPORT bool rt_torch_is_shared(int64_t t) {
    return spl::guarded<bool>(__func__, [&] {
        const c10::Storage& storage = spl::tensor(t, "t").storage();
        if (storage.device_type() == c10::DeviceType::CUDA) return true;
        return at::MapAllocator::fromDataPtr(storage.data_ptr()) != nullptr;
    });
}

// x.share_memory_(): moves a CPU tensor's storage into shared memory (a file descriptor's, the
// default strategy); a no-op for a shared or a CUDA tensor (ATen's at::share_memory_).
SPL_TORCH_EXPORT void rt_torch_share_memory_(int64_t t) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_HAS_SHARE_MEMORY
        at::share_memory_(spl::tensor(t, "t"));
#else
        needs_newer_libtorch("x.share_memory_()");
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_layout, "t")
SPL_EXTRA(rt_torch_tensor_is, "t", "kind")
SPL_EXTRA_RETURNS(rt_torch_strides, "[i64]", "t")
SPL_EXTRA(rt_torch_data_ptr, "t", "const_access")
SPL_EXTRA(rt_torch_grad_dtype, "t")
SPL_EXTRA(rt_torch_set_grad_dtype, "t", "dtype")
SPL_EXTRA(rt_torch_tensor_name, "t")
SPL_EXTRA(rt_torch_is_shared, "t")
SPL_EXTRA(rt_torch_share_memory_, "t")
