/* The C table of libspl_torch_cuda.so, the plugin's CUDA companion: what only LibTorch's CUDA
 * libraries offer (a device's properties, CUDA graphs, the NCCL backend). The plugin loads it
 * when it has loaded LibTorch's CUDA part (core/cuda_companion.h), so that a process without a
 * GPU never links libtorch_cuda. Every function returns NULL on success or an error text, valid
 * until the calling thread's next call; C types only, so no C++ object or exception crosses. */
#ifndef SPL_TORCH_CUDA_H
#define SPL_TORCH_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPL_TORCH_CUDA_ABI 1

typedef struct SplCudaDeviceProperties {
    char name[256];
    int64_t major;
    int64_t minor;
    int64_t total_memory;
    int64_t multi_processor_count;
} SplCudaDeviceProperties;

typedef struct SplCudaApi {
    int32_t abi; /* SPL_TORCH_CUDA_ABI */
    const char* (*device_properties)(int64_t device, SplCudaDeviceProperties* out);

    /* at::cuda::CUDAGraph; *graph is an opaque pointer freed by graph_delete. */
    const char* (*graph_new)(int32_t keep_graph, void** graph);
    void (*graph_delete)(void* graph);
    /* pool {0, 0}: a private pool; capture_mode: 0 global, 1 thread_local, 2 relaxed. */
    const char* (*graph_capture_begin)(void* graph, uint64_t pool_first, uint64_t pool_second, int32_t capture_mode);
    const char* (*graph_capture_end)(void* graph);
    const char* (*graph_replay)(void* graph);
    const char* (*graph_reset)(void* graph);
    const char* (*graph_pool)(void* graph, uint64_t* first, uint64_t* second);
    const char* (*graph_pool_handle)(uint64_t* first, uint64_t* second);

    /* c10d::ProcessGroupNCCL(store, rank, size) with its timeout: `store` is a borrowed
     * c10d::Store*, *backend a c10d::Backend* whose one reference passes to the caller
     * (c10::intrusive_ptr's release/reclaim). */
    const char* (*nccl_backend)(void* store, int64_t rank, int64_t size, int64_t timeout_ms, void** backend);
    int32_t nccl_available;
} SplCudaApi;

/* The one exported symbol. */
const SplCudaApi* spl_torch_cuda_api(void);

#ifdef __cplusplus
}
#endif

#endif
