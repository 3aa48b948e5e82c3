// libspl_torch_cuda.so: the plugin's CUDA companion (spl_torch_cuda.h). Each entry catches
// everything and answers with a text: the plugin's error translator raises it on its side.
#include "spl_torch_cuda.h"

#include <ATen/cuda/CUDAContextLight.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/util/Exception.h>
#include <torch/csrc/api/include/torch/version.h>

#if defined(USE_C10D_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

thread_local std::string last_error;

template <class F>
const char* answer(F&& body) noexcept {
    try {
        body();
        return nullptr;
    } catch (const c10::Error& e) {
        last_error = e.what_without_backtrace();
    } catch (const std::exception& e) {
        last_error = e.what();
    } catch (...) {
        last_error = "unknown C++ exception in libspl_torch_cuda";
    }
    return last_error.c_str();
}

at::cuda::CUDAGraph& as_graph(void* graph) {
    TORCH_CHECK(graph != nullptr, "CUDAGraph: no graph");
    return *static_cast<at::cuda::CUDAGraph*>(graph);
}

const char* device_properties(int64_t device, SplCudaDeviceProperties* out) {
    return answer([&] {
        const cudaDeviceProp* p = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(device));
        std::memset(out, 0, sizeof(*out));
        std::snprintf(out->name, sizeof(out->name), "%s", p->name);
        out->major = p->major;
        out->minor = p->minor;
        out->total_memory = static_cast<int64_t>(p->totalGlobalMem);
        out->multi_processor_count = p->multiProcessorCount;
    });
}

const char* graph_new(int32_t keep_graph, void** graph) {
    return answer([&] { *graph = new at::cuda::CUDAGraph(keep_graph != 0); });
}

void graph_delete(void* graph) {
    answer([&] { delete static_cast<at::cuda::CUDAGraph*>(graph); });
}

const char* graph_capture_begin(void* graph, uint64_t first, uint64_t second, int32_t capture_mode) {
    return answer([&] {
        const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                               cudaStreamCaptureModeRelaxed};
        TORCH_CHECK(capture_mode >= 0 && capture_mode <= 2, "capture_error_mode: bad mode ", capture_mode);
        as_graph(graph).capture_begin({first, second}, modes[capture_mode]);
    });
}

const char* graph_capture_end(void* graph) {
    return answer([&] { as_graph(graph).capture_end(); });
}

const char* graph_replay(void* graph) {
    return answer([&] { as_graph(graph).replay(); });
}

const char* graph_reset(void* graph) {
    return answer([&] { as_graph(graph).reset(); });
}

const char* graph_pool(void* graph, uint64_t* first, uint64_t* second) {
    return answer([&] {
        const auto pool = as_graph(graph).pool();
        *first = pool.first;
        *second = pool.second;
    });
}

const char* graph_pool_handle(uint64_t* first, uint64_t* second) {
    return answer([&] {
        const auto pool = at::cuda::graph_pool_handle();
        *first = pool.first;
        *second = pool.second;
    });
}

const char* nccl_backend(void* store, int64_t rank, int64_t size, int64_t timeout_ms, void** backend) {
    return answer([&] {
#if defined(USE_C10D_NCCL)
        auto options = c10d::ProcessGroupNCCL::Options::create();
        options->timeout = std::chrono::milliseconds(timeout_ms);
        auto borrowed =
            c10::intrusive_ptr<c10d::Store>::unsafe_reclaim_from_nonowning(static_cast<c10d::Store*>(store));
        c10::intrusive_ptr<c10d::Backend> made = c10::make_intrusive<c10d::ProcessGroupNCCL>(
            borrowed, static_cast<int>(rank), static_cast<int>(size), options);
        *backend = made.release();
#else
        TORCH_CHECK(false, "NCCL backend is not available: the plugin's CUDA companion was built without "
                           "NCCL's headers (nccl.h)");
#endif
    });
}

const SplCudaApi api = {
    SPL_TORCH_CUDA_ABI,
    device_properties,
    graph_new,
    graph_delete,
    graph_capture_begin,
    graph_capture_end,
    graph_replay,
    graph_reset,
    graph_pool,
    graph_pool_handle,
    nccl_backend,
#if defined(USE_C10D_NCCL)
    1,
#else
    0,
#endif
};

} // namespace

extern "C" __attribute__((visibility("default"))) const SplCudaApi* spl_torch_cuda_api(void) { return &api; }
