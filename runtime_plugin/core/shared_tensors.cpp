// spl_torch_share_api (spl_torch_share.h): tensors lent to another plugin of the process.
#include "spl_torch_share.h"

#include "abi/error_guard.h"
#include "core/handle_table.h"
#include "core/libtorch_compat.h"
#include "core/loaded_version.h"

#include <ATen/DLConvertor.h>
#include <ATen/core/Tensor.h>

#include <string>

namespace {

// Runs `body`; NULL, or the message of what it threw, worded by the plugin's one translator and
// kept as the thread's last error (until its next failure). The pending flag is left alone: the
// share table answers through its result, and a share call made inside another entry point's call
// (through a host callable) must not fail that call.
template <class Body>
const char* shared(Body&& body) noexcept {
    try {
        body();
        return nullptr;
    } catch (...) {
        std::string& message = spl::thread_error_message();
        message = spl::current_exception_text();
        return message.c_str();
    }
}

const char* libtorch_path(const char** path) {
    return shared([&] {
        static const std::string file = spl::loaded_libtorch_path();
        *path = file.c_str();
    });
}

const char* tensor_impl(int64_t handle, void** impl) {
    return shared([&] { *impl = spl::HandleTable::instance().get(handle, "tensor").unsafeGetTensorImpl(); });
}

const char* adopt_tensor_impl(void* impl, int64_t* handle) {
    return shared([&] {
        TORCH_CHECK(impl != nullptr, "adopt_tensor_impl: a null TensorImpl");
        auto ptr = c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>::unsafe_reclaim_from_nonowning(
            static_cast<c10::TensorImpl*>(impl));
        *handle = spl::HandleTable::instance().insert(at::Tensor(std::move(ptr)));
    });
}

const char* to_dlpack(int64_t handle, int32_t versioned, void** managed, int32_t* device_type, int32_t* device_id) {
    return shared([&] {
        const at::Tensor& t = spl::HandleTable::instance().get(handle, "tensor");
        DLDevice device{};
        if (!versioned) {
            auto* m = at::toDLPack(t);
            device = m->dl_tensor.device;
            *managed = m;
        } else {
#if SPL_TORCH_AT_LEAST(2, 6)
            auto* m = at::toDLPackVersioned(t);
            device = m->dl_tensor.device;
            *managed = m;
#else
            TORCH_CHECK(false, "versioned DLPack capsules need LibTorch 2.6 or newer");
#endif
        }
        *device_type = static_cast<int32_t>(device.device_type);
        *device_id = static_cast<int32_t>(device.device_id);
    });
}

const char* from_dlpack(void* managed, int32_t versioned, int64_t* handle) {
    return shared([&] {
        TORCH_CHECK(managed != nullptr, "from_dlpack: a null DLPack tensor");
        if (!versioned) {
            *handle = spl::HandleTable::instance().insert(at::fromDLPack(static_cast<DLManagedTensor*>(managed)));
            return;
        }
#if SPL_TORCH_AT_LEAST(2, 6)
        *handle = spl::HandleTable::instance().insert(
            at::fromDLPackVersioned(static_cast<DLManagedTensorVersioned*>(managed)));
#else
        TORCH_CHECK(false, "versioned DLPack capsules need LibTorch 2.6 or newer");
#endif
    });
}

void dlpack_delete(void* managed, int32_t versioned) {
    if (!managed) return;
    if (!versioned) {
        auto* m = static_cast<DLManagedTensor*>(managed);
        if (m->deleter) m->deleter(m);
        return;
    }
#if SPL_TORCH_AT_LEAST(2, 6)
    auto* m = static_cast<DLManagedTensorVersioned*>(managed);
    if (m->deleter) m->deleter(m);
#endif
}

const char* python_object(int64_t handle, void** object) {
    return shared([&] {
        *object = nullptr;
        const at::Tensor& t = spl::HandleTable::instance().get(handle, "tensor");
#if SPL_TORCH_AT_LEAST(2, 15)
        // LibTorch's PyObject preservation: while C++ holds the TensorImpl as well as its Python
        // object, the TensorImpl holds that object, so it stays alive while the handle does.
        *object = t.unsafeGetTensorImpl()->pyobj_slot()->load_pyobj();
#else
        (void)t; // an older LibTorch keeps the object by another scheme: wrapped afresh instead
#endif
    });
}

const SplTorchShareApi kShareApi{SPL_TORCH_SHARE_ABI, SPL_TORCH_LIBTORCH_VERSION,
                                 &libtorch_path,      &tensor_impl,
                                 &adopt_tensor_impl,  &to_dlpack,
                                 &dlpack_delete,      &from_dlpack,
                                 &python_object};

} // namespace

extern "C" SPL_TORCH_EXPORT const SplTorchShareApi* spl_torch_share_api(void) { return &kShareApi; }
