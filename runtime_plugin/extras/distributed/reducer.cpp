// DistributedDataParallel's C++ machinery (lib.torch.nn.parallel): c10d's Reducer, which hooks
// the parameters' gradient accumulators, buckets their gradients and all-reduces each bucket as
// backward fills it (averaged over the group), and the calls torch.nn.parallel's Python makes
// around it: the parameters' check and broadcast from rank 0 at construction
// (verify_params_across_processes, broadcast_coalesced), the bucket assignment, and per
// iteration prepare_for_forward / rebuild_buckets / prepare_for_backward. The same calls in the
// same order as PyTorch's DDP, so a Python rank and a Simple rank can share one group.
//
// The Reducer takes a c10d::ProcessGroup: from 2.0 a group object holds the Gloo backend, so
// the reducer gets a ProcessGroup wrapping it (what torch.distributed builds for "gloo"); in
// 1.13 ProcessGroupGloo is itself one, but LibTorch 1.13's headers as Debian ships them lack
// reducer.hpp's includes (distributed/autograd): there every entry point refuses, naming the
// version. Backward runs on the caller's thread
// (SingleThreadedBackward, autograd.cpp): the reducer's hooks and its final callback run there.
#include "extras/distributed/dist_support.h"

#if SPL_TORCH_AT_LEAST(2, 0) && __has_include(<torch/csrc/distributed/autograd/context/context.h>)
#define SPL_TORCH_HAS_REDUCER 1
#include <torch/csrc/distributed/c10d/comm.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>
#include <torch/csrc/autograd/engine.h>
#else
#define SPL_TORCH_HAS_REDUCER 0
#endif

#include <atomic>
#include <memory>
#include <unordered_map>

#if SPL_TORCH_HAS_REDUCER

namespace {

class ReducerObject : public spl::HandleObject {
public:
    static constexpr const char* kKind = "a DDP reducer";
    ReducerObject(c10::intrusive_ptr<c10d::ProcessGroup> g, std::unique_ptr<c10d::Reducer> r)
        : group(std::move(g)), reducer(std::move(r)) {}
    const char* kind() const noexcept override { return kKind; }
    const c10::intrusive_ptr<c10d::ProcessGroup> group;
    const std::unique_ptr<c10d::Reducer> reducer;
    // A static graph's delayed all-reduce has been queued (DDP's _static_graph_delay_allreduce_enqueued).
    std::atomic<bool> delay_enqueued{false};
};

std::shared_ptr<ReducerObject> reducer_object(int64_t handle) {
    return spl::HandleTable::instance().object<ReducerObject>(handle, "reducer", ReducerObject::kKind);
}

c10d::Reducer& reducer_of(int64_t handle) { return *reducer_object(handle)->reducer; }

// The ProcessGroup the Reducer and the coalesced broadcast run on.
c10::intrusive_ptr<c10d::ProcessGroup> process_group(int64_t group) {
    auto backend = spl::dist::group(group);
    auto pg = c10::make_intrusive<c10d::ProcessGroup>(backend->getRank(), backend->getSize());
    pg->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, backend);
    pg->setDefaultBackend(c10d::ProcessGroup::BackendType::GLOO);
    return pg;
}

} // namespace

extern "C" {

// DistributedDataParallel's construction after its Python checks: when init_sync, the
// parameters' shapes checked across the group and `sync` (parameters, then buffers) broadcast
// from rank 0 in 250 MiB buckets; then the parameters bucketed by `limits` (bytes; reversed, as
// DDP does) and the Reducer built. names: the parameters' names, newline-separated (its errors
// name them). rebuild_limits: the limits for the rebuild after the first iteration (empty: the
// Reducer's own). expect_sparse: one 0/1 per parameter.
SPL_TORCH_EXPORT int64_t rt_torch_dist_reducer_new(int64_t group, SplI64Array params, SplI64Array expect_sparse,
                                                   SplI64Array limits, SplI64Array rebuild_limits,
                                                   int64_t bucket_bytes_cap, int64_t first_bucket_bytes_cap,
                                                   bool find_unused_parameters, bool gradient_as_bucket_view,
                                                   bool static_graph, bool init_sync, SplI64Array sync,
                                                   const char* names) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
        auto pg = process_group(group);
        const std::vector<at::Tensor> parameters = spl::tensor_list(params, "parameters");
        spl::check_list(expect_sparse.len, expect_sparse.data, "expect_sparse");
        spl::check_list(limits.len, limits.data, "limits");
        spl::check_list(rebuild_limits.len, rebuild_limits.data, "rebuild_limits");
        TORCH_CHECK(expect_sparse.len == params.len, "expect_sparse: got ", expect_sparse.len, " flags for ",
                    params.len, " parameters");
        std::vector<bool> sparse;
        for (int64_t i = 0; i < expect_sparse.len; ++i) sparse.push_back(expect_sparse.data[i] != 0);
        if (init_sync) {
            c10d::verify_params_across_processes(pg, parameters, {});
            std::vector<at::Tensor> states = spl::tensor_list(sync, "sync");
            for (auto& t : states) t = t.detach(); // as DDP's param.detach(): the copy is not recorded
            if (!states.empty()) c10d::broadcast_coalesced(pg, states, 250 * 1024 * 1024, 0);
        }
        std::vector<size_t> size_limits(limits.data, limits.data + limits.len);
        // (the per-bucket limits it also gives are not the Reducer's to take)
        auto bucket_indices = std::get<0>(c10d::compute_bucket_assignment_by_size(parameters, size_limits, sparse));
        std::reverse(bucket_indices.begin(), bucket_indices.end());
        std::unordered_map<size_t, std::string> param_names;
        if (names != nullptr && *names != '\0') {
            const auto all = spl::dist::split_keys(names);
            for (size_t i = 0; i < all.size(); ++i) param_names[i] = all[i];
        }
        std::vector<int64_t> rebuild(rebuild_limits.data, rebuild_limits.data + rebuild_limits.len);
        auto reducer = std::make_unique<c10d::Reducer>(parameters, bucket_indices, pg, sparse, bucket_bytes_cap,
                                                       find_unused_parameters, gradient_as_bucket_view, param_names,
                                                       first_bucket_bytes_cap, /*skip_all_reduce_unused_params=*/false,
                                                       /*use_python_reducer=*/false, rebuild);
        if (static_graph) reducer->set_static_graph();
        return spl::HandleTable::instance().insert_object(std::make_shared<ReducerObject>(pg, std::move(reducer)));
    });
}

SPL_TORCH_EXPORT void rt_torch_dist_reducer_prepare_for_forward(int64_t reducer) {
    spl::guarded<void>(__func__, [&] { reducer_of(reducer).prepare_for_forward(); });
}

// Whether the buckets were rebuilt now (once, before the second iteration's forward, in the
// order the first backward made the gradients ready; rank 0's order is broadcast).
SPL_TORCH_EXPORT bool rt_torch_dist_reducer_rebuild_buckets(int64_t reducer) {
    return spl::guarded<bool>(__func__, [&] { return reducer_of(reducer).rebuild_buckets(); });
}

// outputs: the forward's output tensors, from which find_unused_parameters searches the graph
// (empty otherwise).
SPL_TORCH_EXPORT void rt_torch_dist_reducer_prepare_for_backward(int64_t reducer, SplI64Array outputs) {
    spl::guarded<void>(__func__,
                       [&] { reducer_of(reducer).prepare_for_backward(spl::tensor_list(outputs, "outputs")); });
}

// DDP's _DDPSink for a static graph: in the first iteration the Reducer only counts the
// gradients' hooks, and the gradients are all-reduced once backward has ended, by the
// delay_all_reduce that _DDPSink's backward queues on the autograd engine. Here a hook on each
// output that requires grad queues it (once: the first backward through any of them); after
// that this does nothing and returns false, so that DDP's forward stops asking, as DDP stops
// adding the sink. The hooks hold the reducer weakly.
SPL_TORCH_EXPORT bool rt_torch_dist_reducer_delay_all_reduce_after_backward(int64_t reducer, SplI64Array outputs) {
    return spl::guarded<bool>(__func__, [&] {
        auto object = reducer_object(reducer);
        if (object->delay_enqueued) return false;
        std::weak_ptr<ReducerObject> weak = object;
        for (const at::Tensor& t : spl::tensor_list(outputs, "outputs")) {
            if (!t.requires_grad()) continue;
            t.register_hook([weak](const at::Tensor&) {
                auto r = weak.lock();
                if (!r || r->delay_enqueued.exchange(true)) return;
                torch::autograd::Engine::get_default_engine().queue_callback([weak] {
                    if (auto live = weak.lock()) live->reducer->delay_all_reduce();
                });
            });
        }
        return true;
    });
}

// torch.distributed._broadcast_coalesced: `tensors` from rank `src`, in buckets of buffer_size bytes.
SPL_TORCH_EXPORT void rt_torch_dist_broadcast_coalesced(int64_t group, SplI64Array tensors, int64_t buffer_size,
                                                        int64_t src) {
    spl::guarded<void>(__func__, [&] {
        std::vector<at::Tensor> list = spl::tensor_list(tensors, "tensors");
        for (auto& t : list) t = t.detach();
        if (!list.empty())
            c10d::broadcast_coalesced(process_group(group), list, static_cast<size_t>(buffer_size),
                                      static_cast<int>(src));
    });
}

} // extern "C"

#else // !SPL_TORCH_HAS_REDUCER

namespace {

[[noreturn]] void no_reducer() {
    TORCH_CHECK(false, "DistributedDataParallel needs LibTorch 2.x's c10d Reducer: this plugin links LibTorch ",
                SPL_TORCH_LIBTORCH_VERSION, ", whose headers lack reducer.hpp's includes");
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_dist_reducer_new(int64_t, SplI64Array, SplI64Array, SplI64Array, SplI64Array, int64_t,
                                                   int64_t, bool, bool, bool, bool, SplI64Array, const char*) {
    return spl::guarded<int64_t>(__func__, []() -> int64_t { no_reducer(); });
}
SPL_TORCH_EXPORT void rt_torch_dist_reducer_prepare_for_forward(int64_t) {
    spl::guarded<void>(__func__, [] { no_reducer(); });
}
SPL_TORCH_EXPORT bool rt_torch_dist_reducer_rebuild_buckets(int64_t) {
    return spl::guarded<bool>(__func__, []() -> bool { no_reducer(); });
}
SPL_TORCH_EXPORT void rt_torch_dist_reducer_prepare_for_backward(int64_t, SplI64Array) {
    spl::guarded<void>(__func__, [] { no_reducer(); });
}
SPL_TORCH_EXPORT bool rt_torch_dist_reducer_delay_all_reduce_after_backward(int64_t, SplI64Array) {
    return spl::guarded<bool>(__func__, []() -> bool { no_reducer(); });
}
SPL_TORCH_EXPORT void rt_torch_dist_broadcast_coalesced(int64_t, SplI64Array, int64_t, int64_t) {
    spl::guarded<void>(__func__, [] { no_reducer(); });
}

} // extern "C"

#endif

SPL_EXTRA(rt_torch_dist_reducer_new, "group", "params", "expect_sparse", "limits", "rebuild_limits", "bucket_bytes_cap",
          "first_bucket_bytes_cap", "find_unused_parameters", "gradient_as_bucket_view", "static_graph", "init_sync",
          "sync", "names")
SPL_EXTRA(rt_torch_dist_reducer_prepare_for_forward, "reducer")
SPL_EXTRA(rt_torch_dist_reducer_rebuild_buckets, "reducer")
SPL_EXTRA(rt_torch_dist_reducer_prepare_for_backward, "reducer", "outputs")
SPL_EXTRA(rt_torch_dist_reducer_delay_all_reduce_after_backward, "reducer", "outputs")
SPL_EXTRA(rt_torch_dist_broadcast_coalesced, "group", "tensors", "buffer_size", "src")
