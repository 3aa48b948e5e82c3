// The work a collective started (torch.distributed's Work): wait blocks until it completes (or
// fails: the group's timeout, a peer gone, Gloo's error, whose text reaches Simple unchanged).
#include "extras/distributed/dist_support.h"

namespace {

spl::dist::WorkPtr dist_work_of(int64_t work) {
    return spl::HandleTable::instance().object<spl::dist::WorkObject>(work, "work", spl::dist::WorkObject::kKind)->work;
}

} // namespace

extern "C" {

// Work.wait(timeout): timeout_ms < 0 waits as long as the group's timeout allows.
SPL_TORCH_EXPORT bool rt_torch_dist_work_wait(int64_t work, int64_t timeout_ms) {
    return spl::guarded<bool>(__func__, [&] {
        auto w = dist_work_of(work);
        return timeout_ms < 0 ? w->wait() : w->wait(spl::dist::millis(timeout_ms));
    });
}

SPL_TORCH_EXPORT bool rt_torch_dist_work_is_completed(int64_t work) {
    return spl::guarded<bool>(__func__, [&] { return dist_work_of(work)->isCompleted(); });
}

// The rank a recv from any source received from.
SPL_TORCH_EXPORT int64_t rt_torch_dist_work_source_rank(int64_t work) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(dist_work_of(work)->sourceRank()); });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_work_wait, "work", "timeout_ms")
SPL_EXTRA(rt_torch_dist_work_is_completed, "work")
SPL_EXTRA(rt_torch_dist_work_source_rank, "work")
