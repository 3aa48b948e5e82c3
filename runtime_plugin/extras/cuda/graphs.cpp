// torch.cuda.CUDAGraph through the CUDA companion: a graph is a handle-table object that owns
// the companion's at::cuda::CUDAGraph; capture runs on the thread's current stream, which
// lib.torch.cuda's graph scope sets to a side stream first, as torch.cuda.graph does.
#include "extras/cuda/cuda_support.h"

namespace {

class GraphObject : public spl::HandleObject {
public:
    static constexpr const char* kKind = "a CUDA graph";
    GraphObject(const SplCudaApi& api, void* graph) : api_(api), graph(graph) {}
    ~GraphObject() override { api_.graph_delete(graph); }
    GraphObject(const GraphObject&) = delete;
    GraphObject& operator=(const GraphObject&) = delete;
    const char* kind() const noexcept override { return kKind; }

private:
    const SplCudaApi& api_;

public:
    void* const graph;
};

void* graph(int64_t handle) {
    return spl::HandleTable::instance().object<GraphObject>(handle, "graph", GraphObject::kKind)->graph;
}

// A memory pool's id, (first, second), as two i64 (CUDA's ids are small counters).
SplValue pool_value(uint64_t first, uint64_t second) {
    spl::ResultArena::current().reset();
    SplValue* items = spl::ResultArena::current().values(2);
    items[0] = spl::v_i64(static_cast<int64_t>(first));
    items[1] = spl::v_i64(static_cast<int64_t>(second));
    return spl::v_array(items, 2);
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_cuda_graph_new(bool keep_graph) {
    return spl::guarded<int64_t>(__func__, [&] {
        const SplCudaApi& api = spl::cuda_companion();
        void* made = nullptr;
        spl::check_companion(api.graph_new(keep_graph ? 1 : 0, &made));
        return spl::HandleTable::instance().insert_object(std::make_shared<GraphObject>(api, made));
    });
}

// capture_error_mode: "global", "thread_local" or "relaxed"; pool [0, 0] for a private pool.
SPL_TORCH_EXPORT void rt_torch_cuda_graph_capture_begin(int64_t g, SplI64Array pool, const char* capture_error_mode) {
    spl::guarded<void>(__func__, [&] {
        TORCH_CHECK(pool.len == 2, "CUDAGraph.capture_begin: a pool is two integers, got ", pool.len);
        const std::string mode(capture_error_mode);
        const int32_t code = mode == "global" ? 0 : mode == "thread_local" ? 1 : mode == "relaxed" ? 2 : -1;
        TORCH_CHECK(code >= 0, "Unknown capture error mode. Expected `global`, `thread_local`, or `relaxed`, got ",
                    mode);
        spl::check_companion(spl::cuda_companion().graph_capture_begin(graph(g), static_cast<uint64_t>(pool.data[0]),
                                                                       static_cast<uint64_t>(pool.data[1]), code));
    });
}

SPL_TORCH_EXPORT void rt_torch_cuda_graph_capture_end(int64_t g) {
    spl::guarded<void>(__func__, [&] { spl::check_companion(spl::cuda_companion().graph_capture_end(graph(g))); });
}

SPL_TORCH_EXPORT void rt_torch_cuda_graph_replay(int64_t g) {
    spl::guarded<void>(__func__, [&] { spl::check_companion(spl::cuda_companion().graph_replay(graph(g))); });
}

SPL_TORCH_EXPORT void rt_torch_cuda_graph_reset(int64_t g) {
    spl::guarded<void>(__func__, [&] { spl::check_companion(spl::cuda_companion().graph_reset(graph(g))); });
}

SPL_TORCH_EXPORT SplValue rt_torch_cuda_graph_pool(int64_t g) {
    return spl::guarded<SplValue>(__func__, [&] {
        uint64_t first = 0, second = 0;
        spl::check_companion(spl::cuda_companion().graph_pool(graph(g), &first, &second));
        return pool_value(first, second);
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_cuda_graph_pool_handle(void) {
    return spl::guarded<SplValue>(__func__, [&] {
        uint64_t first = 0, second = 0;
        spl::check_companion(spl::cuda_companion().graph_pool_handle(&first, &second));
        return pool_value(first, second);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_cuda_graph_new, "keep_graph")
SPL_EXTRA(rt_torch_cuda_graph_capture_begin, "graph", "pool", "capture_error_mode")
SPL_EXTRA(rt_torch_cuda_graph_capture_end, "graph")
SPL_EXTRA(rt_torch_cuda_graph_replay, "graph")
SPL_EXTRA(rt_torch_cuda_graph_reset, "graph")
SPL_EXTRA_RETURNS(rt_torch_cuda_graph_pool, "[i64]", "graph")
SPL_EXTRA_RETURNS(rt_torch_cuda_graph_pool_handle, "[i64]")
