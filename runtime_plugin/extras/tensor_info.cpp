// What a tensor is: shape, dtype, device, gradient flag.
#include "extras/extra_function.h"

extern "C" {

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
