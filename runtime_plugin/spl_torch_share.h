/* What libspl_torch.so lends another plugin of the same process that shares its tensors
 * (libspl_python.so, for a torch.Tensor that is the same TensorImpl as a Simple Tensor): the
 * TensorImpl behind a handle, a handle over a TensorImpl, DLPack both ways, and which LibTorch
 * it runs. The other plugin finds the table with dlsym(spl_torch_share_api) on the plugin already
 * loaded (dlopen RTLD_NOLOAD), so the torch plugin never depends on it. Every function returns
 * NULL on success or an error text, valid until the calling thread's next call; C types only. */
#ifndef SPL_TORCH_SHARE_H
#define SPL_TORCH_SHARE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPL_TORCH_SHARE_ABI 2
#define SPL_TORCH_SHARE_SYMBOL "spl_torch_share_api"

typedef struct SplTorchShareApi {
    int32_t abi;                  /* SPL_TORCH_SHARE_ABI */
    const char* libtorch_version; /* the LibTorch the plugin was built against, "2.15.0" */
    /* The file of the libtorch_cpu loaded in this process, resolved ("" if unknown). */
    const char* (*libtorch_path)(const char** path);
    /* The c10::TensorImpl* behind a live tensor handle, borrowed: valid while the handle lives. */
    const char* (*tensor_impl)(int64_t handle, void** impl);
    /* A new handle holding another reference to `impl`, a c10::TensorImpl* of this LibTorch. */
    const char* (*adopt_tensor_impl)(void* impl, int64_t* handle);
    /* DLPack: a new DLManagedTensorVersioned* (versioned != 0) or DLManagedTensor* over the
     * handle's tensor, owning a reference to it until its deleter runs (dlpack_delete), and its
     * DLPack device (__dlpack_device__: type 1 for the CPU, 2 for CUDA; the device's index). */
    const char* (*to_dlpack)(int64_t handle, int32_t versioned, void** managed, int32_t* device_type,
                             int32_t* device_id);
    /* Runs the deleter of a DLPack tensor that was not consumed. */
    void (*dlpack_delete)(void* managed, int32_t versioned);
    /* A new handle over `managed`'s memory (no copy); it takes `managed` over: its deleter runs
     * when the tensor is freed. When the call fails the caller still owns `managed`. */
    const char* (*from_dlpack)(void* managed, int32_t versioned, int64_t* handle);
    /* The PyObject* (borrowed) that Python's torch keeps for the handle's TensorImpl, or NULL
     * when it has none (or this LibTorch does not say). While the handle lives, LibTorch keeps
     * that object alive; the caller holds the GIL. */
    const char* (*python_object)(int64_t handle, void** object);
} SplTorchShareApi;

typedef const SplTorchShareApi* (*SplTorchShareApiFn)(void);

#ifdef __cplusplus
}
#endif

#endif
