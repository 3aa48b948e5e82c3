// torch.distributed.monitored_barrier: Gloo's monitoredBarrier, a barrier that names the ranks
// that did not reach it within the timeout (rank 0 collects; wait_all_ranks names all of them).
#include "extras/distributed/dist_support.h"

extern "C" {

SPL_TORCH_EXPORT void rt_torch_dist_monitored_barrier(int64_t g, int64_t timeout_ms, bool wait_all_ranks) {
    spl::guarded<void>(__func__, [&] {
        c10d::BarrierOptions opts;
        opts.timeout = spl::dist::millis(timeout_ms);
        spl::dist::group(g)->monitoredBarrier(opts, wait_all_ranks);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_monitored_barrier, "group", "timeout_ms", "wait_all_ranks")
