// Batches gathered on a background thread: the DataLoader's `prefetch` option
// (lib.torch.data). `rt_torch_gather_start` copies the rows of a batch out of a
// dataset's tensors (index_select along dim 0) on ATen's inter-op thread pool
// and returns at once with a job handle; `rt_torch_gather_finish` waits for the rows and
// hands them over as new tensor handles, or raises the job's error on the
// calling thread.
//
// Threads: the job holds its own references to the tensors (freeing their
// handles meanwhile is safe), runs with the caller's ATen thread-local state
// (grad mode ...) as ATen's own inter-op tasks do, and never touches the handle
// table or any thread's error state: its result or exception travels back
// through a std::future. Freeing an unfinished job's handle waits for it.
#include "extras/extra_function.h"

#include <ATen/Parallel.h>
#include <ATen/ops/empty.h>

#include <future>
#include <string>
#include <vector>

namespace {

// Rows `rows` of each tensor, in that order (negative rows count from the end, as
// Python's indexing); an out-of-range row is PyTorch's IndexError text for t[i].
std::vector<at::Tensor> gather_rows(const std::vector<at::Tensor>& tensors, const std::vector<int64_t>& rows) {
    std::vector<at::Tensor> parts;
    parts.reserve(tensors.size());
    for (const at::Tensor& t : tensors) {
        const int64_t n = t.size(0);
        at::Tensor index = at::empty({static_cast<int64_t>(rows.size())}, at::kLong);
        int64_t* out = index.data_ptr<int64_t>();
        for (int64_t r : rows) {
            if (r < -n || r >= n)
                throw spl::SplError("index " + std::to_string(r) + " is out of bounds for dimension 0 with size " +
                                    std::to_string(n));
            *out++ = r < 0 ? r + n : r;
        }
        parts.push_back(t.index_select(0, t.is_cpu() ? index : index.to(t.device())));
    }
    return parts;
}

class GatherJob final : public spl::HandleObject {
public:
    static constexpr const char* kKind = "a gather job";

    // Queued on ATen's inter-op thread pool (at::launch: threads that live as long as the
    // process, with the caller's thread-local state), not on a thread of its own: a fresh
    // thread's first parallel ATen call pays for a new OpenMP team.
    GatherJob(std::vector<at::Tensor> tensors, std::vector<int64_t> rows) {
        auto task = std::make_shared<std::packaged_task<std::vector<at::Tensor>()>>(
            [tensors = std::move(tensors), rows = std::move(rows)] { return gather_rows(tensors, rows); });
        result_ = task->get_future();
        at::launch([task] { (*task)(); });
    }
    // An unfinished job is waited for: the task must not outlive what it reads.
    ~GatherJob() override {
        if (result_.valid()) result_.wait();
    }

    const char* kind() const noexcept override { return kKind; }

    // The gathered rows, or the job's exception rethrown here.
    std::vector<at::Tensor> take() { return result_.get(); }

private:
    std::future<std::vector<at::Tensor>> result_;
};

} // namespace

extern "C" {

// Starts gathering rows `rows` of each of `tensors` (handles; each at least 1-d) on a
// background thread; returns the job's handle at once.
SPL_TORCH_EXPORT int64_t rt_torch_gather_start(SplI64Array tensors, SplI64Array rows) {
    return spl::guarded<int64_t>(__func__, [&] {
        std::vector<at::Tensor> sources = spl::tensor_list(tensors, "tensors");
        if (sources.empty()) throw spl::SplError("tensors: at least one tensor is required");
        for (size_t i = 0; i < sources.size(); ++i)
            if (sources[i].dim() == 0)
                throw spl::SplError("tensors: element " + std::to_string(i) + " is 0-dimensional: it has no rows");
        const at::IntArrayRef wanted = spl::int_list(rows, "rows");
        return spl::HandleTable::instance().insert_object(
            std::make_shared<GatherJob>(std::move(sources), std::vector<int64_t>(wanted.begin(), wanted.end())));
    });
}

// Waits for a job and returns its rows as new tensor handles (one per source tensor).
// The job's handle is freed either way; its error, if it failed, is raised here.
SPL_TORCH_EXPORT SplValue rt_torch_gather_finish(int64_t job) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::HandleTable& table = spl::HandleTable::instance();
        std::shared_ptr<GatherJob> running = table.object<GatherJob>(job, "job", GatherJob::kKind);
        table.release(job);
        return spl::tensor_list_value(running->take());
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_gather_start, "tensors", "rows")
SPL_EXTRA_RETURNS(rt_torch_gather_finish, "[i64]", "job")
