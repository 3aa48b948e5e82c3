// The collectives of torch.distributed over a process group's backend. Each starts the
// operation and returns its work (work.cpp); nothing blocks here, only in wait. The argument
// checks torch.distributed makes in Python are lib.torch.distributed's (collectives.spl).
#include "extras/distributed/dist_support.h"

namespace {

using spl::dist::group;
using spl::dist::new_work;

std::vector<at::Tensor> dist_single(int64_t t, const char* what) { return {spl::tensor(t, what)}; }

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_dist_all_reduce(int64_t g, int64_t tensor, const char* op) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto tensors = dist_single(tensor, "tensor");
        c10d::AllreduceOptions opts;
        opts.reduceOp = spl::dist::reduce_op(op);
        return new_work(group(g)->allreduce(tensors, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_broadcast(int64_t g, int64_t tensor, int64_t src) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto tensors = dist_single(tensor, "tensor");
        c10d::BroadcastOptions opts;
        opts.rootRank = src;
        return new_work(group(g)->broadcast(tensors, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_reduce(int64_t g, int64_t tensor, int64_t dst, const char* op) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto tensors = dist_single(tensor, "tensor");
        c10d::ReduceOptions opts;
        opts.rootRank = dst;
        opts.reduceOp = spl::dist::reduce_op(op);
        return new_work(group(g)->reduce(tensors, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_all_gather(int64_t g, SplI64Array tensor_list, int64_t tensor) {
    return spl::guarded<int64_t>(__func__, [&] {
        std::vector<std::vector<at::Tensor>> outputs{spl::tensor_list(tensor_list, "tensor_list")};
        auto inputs = dist_single(tensor, "tensor");
        return new_work(group(g)->allgather(outputs, inputs));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_all_reduce_coalesced(int64_t g, SplI64Array tensors, const char* op) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto list = spl::tensor_list(tensors, "tensors");
        c10d::AllreduceCoalescedOptions opts;
        opts.reduceOp = spl::dist::reduce_op(op);
        return new_work(group(g)->allreduce_coalesced(list, opts));
    });
}

// output_tensor_lists flattened, with each list's length: c10d sees the lists as given.
SPL_TORCH_EXPORT int64_t rt_torch_dist_all_gather_coalesced(int64_t g, SplI64Array outputs, SplI64Array lengths,
                                                            SplI64Array input_tensor_list) {
    return spl::guarded<int64_t>(__func__, [&] {
        const auto flat = spl::tensor_list(outputs, "output_tensor_lists");
        spl::check_list(lengths.len, lengths.data, "lengths");
        std::vector<std::vector<at::Tensor>> lists;
        size_t next = 0;
        for (int64_t i = 0; i < lengths.len; ++i) {
            const int64_t n = lengths.data[i];
            TORCH_CHECK(n >= 0 && static_cast<size_t>(n) <= flat.size() - next,
                        "all_gather_coalesced: the output lists' lengths do not add up to their tensors");
            lists.emplace_back(flat.begin() + static_cast<long>(next), flat.begin() + static_cast<long>(next + n));
            next += static_cast<size_t>(n);
        }
        TORCH_CHECK(next == flat.size(),
                    "all_gather_coalesced: the output lists' lengths do not add up to their tensors");
        auto inputs = spl::tensor_list(input_tensor_list, "input_tensor_list");
        return new_work(group(g)->allgather_coalesced(lists, inputs));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_all_gather_into_tensor(int64_t g, int64_t output, int64_t input) {
    return spl::guarded<int64_t>(__func__, [&] {
        at::Tensor out = spl::tensor(output, "output_tensor");
        at::Tensor in = spl::tensor(input, "input_tensor");
        return new_work(group(g)->_allgather_base(out, in));
    });
}

// gather_list: the outputs on the destination rank, empty elsewhere.
SPL_TORCH_EXPORT int64_t rt_torch_dist_gather(int64_t g, int64_t tensor, SplI64Array gather_list, int64_t dst) {
    return spl::guarded<int64_t>(__func__, [&] {
        std::vector<std::vector<at::Tensor>> outputs;
        auto list = spl::tensor_list(gather_list, "gather_list");
        if (!list.empty()) outputs.push_back(list);
        auto inputs = dist_single(tensor, "tensor");
        c10d::GatherOptions opts;
        opts.rootRank = dst;
        return new_work(group(g)->gather(outputs, inputs, opts));
    });
}

// scatter_list: the inputs on the source rank, empty elsewhere.
SPL_TORCH_EXPORT int64_t rt_torch_dist_scatter(int64_t g, int64_t tensor, SplI64Array scatter_list, int64_t src) {
    return spl::guarded<int64_t>(__func__, [&] {
        std::vector<std::vector<at::Tensor>> inputs;
        auto list = spl::tensor_list(scatter_list, "scatter_list");
        if (!list.empty()) inputs.push_back(list);
        auto outputs = dist_single(tensor, "tensor");
        c10d::ScatterOptions opts;
        opts.rootRank = src;
        return new_work(group(g)->scatter(outputs, inputs, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_reduce_scatter_tensor(int64_t g, int64_t output, int64_t input, const char* op) {
    return spl::guarded<int64_t>(__func__, [&] {
        at::Tensor out = spl::tensor(output, "output");
        at::Tensor in = spl::tensor(input, "input");
        c10d::ReduceScatterOptions opts;
        opts.reduceOp = spl::dist::reduce_op(op);
        return new_work(group(g)->_reduce_scatter_base(out, in, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_all_to_all_single(int64_t g, int64_t output, int64_t input,
                                                         SplI64Array output_split_sizes,
                                                         SplI64Array input_split_sizes) {
    return spl::guarded<int64_t>(__func__, [&] {
        at::Tensor out = spl::tensor(output, "output");
        at::Tensor in = spl::tensor(input, "input");
        spl::check_list(output_split_sizes.len, output_split_sizes.data, "output_split_sizes");
        spl::check_list(input_split_sizes.len, input_split_sizes.data, "input_split_sizes");
        std::vector<int64_t> out_splits(output_split_sizes.data, output_split_sizes.data + output_split_sizes.len);
        std::vector<int64_t> in_splits(input_split_sizes.data, input_split_sizes.data + input_split_sizes.len);
        return new_work(group(g)->alltoall_base(out, in, out_splits, in_splits));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_barrier(int64_t g) {
    return spl::guarded<int64_t>(__func__, [&] { return new_work(group(g)->barrier()); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_send(int64_t g, int64_t tensor, int64_t dst, int64_t tag) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto tensors = dist_single(tensor, "tensor");
        return new_work(group(g)->send(tensors, static_cast<int>(dst), static_cast<int>(tag)));
    });
}

// src < 0: from any source (the work's source rank says which).
SPL_TORCH_EXPORT int64_t rt_torch_dist_recv(int64_t g, int64_t tensor, int64_t src, int64_t tag) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto tensors = dist_single(tensor, "tensor");
        auto backend = group(g);
        return new_work(src < 0 ? backend->recvAnysource(tensors, static_cast<int>(tag))
                                : backend->recv(tensors, static_cast<int>(src), static_cast<int>(tag)));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_all_reduce, "group", "tensor", "op")
SPL_EXTRA(rt_torch_dist_broadcast, "group", "tensor", "src")
SPL_EXTRA(rt_torch_dist_reduce, "group", "tensor", "dst", "op")
SPL_EXTRA(rt_torch_dist_all_gather, "group", "tensor_list", "tensor")
SPL_EXTRA(rt_torch_dist_all_reduce_coalesced, "group", "tensors", "op")
SPL_EXTRA(rt_torch_dist_all_gather_coalesced, "group", "output_tensor_lists", "lengths", "input_tensor_list")
SPL_EXTRA(rt_torch_dist_all_gather_into_tensor, "group", "output", "input")
SPL_EXTRA(rt_torch_dist_gather, "group", "tensor", "gather_list", "dst")
SPL_EXTRA(rt_torch_dist_scatter, "group", "tensor", "scatter_list", "src")
SPL_EXTRA(rt_torch_dist_reduce_scatter_tensor, "group", "output", "input", "op")
SPL_EXTRA(rt_torch_dist_all_to_all_single, "group", "output", "input", "output_split_sizes", "input_split_sizes")
SPL_EXTRA(rt_torch_dist_barrier, "group")
SPL_EXTRA(rt_torch_dist_send, "group", "tensor", "dst", "tag")
SPL_EXTRA(rt_torch_dist_recv, "group", "tensor", "src", "tag")
