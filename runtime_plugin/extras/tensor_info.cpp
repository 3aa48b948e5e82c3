// What a tensor is: shape, dtype, device, gradient flag.
#include "extras/extra_function.h"

extern "C" {

// Tensor.element_size(): the bytes of one element of the tensor's dtype.
SPL_TORCH_EXPORT int64_t rt_torch_element_size(int64_t t) {
    return spl::guarded<int64_t>(__func__,
                                 [&] { return static_cast<int64_t>(spl::tensor(t, "tensor").element_size()); });
}

// Python's integer index `t[i]` along `dim` (its applySelect): select, refused with PyTorch's
// message, which names the dimension as the program indexed it (`real_dim`: `t[1, 4]` is
// dimension 1 of t, dimension 0 of the view the first index made).
SPL_TORCH_EXPORT int64_t rt_torch_index_int(int64_t t, int64_t dim, int64_t index, int64_t real_dim) {
    return spl::guarded<int64_t>(__func__, [&] {
        const at::Tensor& self = spl::tensor(t, "tensor");
        TORCH_CHECK_INDEX(self.dim() > 0, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                          "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        const int64_t size = self.size(dim);
        TORCH_CHECK_INDEX(size > -1 - index && size > index, "index ", index, " is out of bounds for dimension ",
                          real_dim, " with size ", size);
        return spl::new_handle(self.select(dim, index));
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_shape(int64_t t) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::ResultArena::current().reset();
        const auto sizes = spl::tensor(t, "tensor").sizes();
        SplValue* items = spl::ResultArena::current().values(sizes.size());
        for (size_t i = 0; i < sizes.size(); ++i) items[i] = spl::v_i64(sizes[i]);
        return spl::v_array(items, static_cast<int64_t>(sizes.size()));
    });
}

SPL_TORCH_EXPORT const char* rt_torch_dtype(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] { return spl::dtype_name(spl::tensor(t, "tensor").scalar_type()); });
}

SPL_TORCH_EXPORT const char* rt_torch_device(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::device_name(spl::tensor(t, "tensor").device()));
    });
}

SPL_TORCH_EXPORT bool rt_torch_requires_grad(int64_t t) {
    return spl::guarded<bool>(__func__, [&] { return spl::tensor(t, "tensor").requires_grad(); });
}

SPL_TORCH_EXPORT bool rt_torch_shares_storage(int64_t a, int64_t b) {
    return spl::guarded<bool>(__func__,
                              [&] { return spl::tensor(a, "a").storage().is_alias_of(spl::tensor(b, "b").storage()); });
}

} // extern "C"

SPL_EXTRA_RETURNS(rt_torch_shape, "[i64]", "t")
SPL_EXTRA(rt_torch_dtype, "t")
SPL_EXTRA(rt_torch_device, "t")
SPL_EXTRA(rt_torch_requires_grad, "t")
SPL_EXTRA(rt_torch_shares_storage, "a", "b")
SPL_EXTRA(rt_torch_index_int, "t", "dim", "index", "real_dim")
SPL_EXTRA(rt_torch_element_size, "t")
