// torch.cuda's memory statistics, from LibTorch's CUDA caching allocator through c10's
// device-generic DeviceAllocator: memory_allocated, max_memory_allocated, memory_reserved,
// max_memory_reserved, reset_peak_memory_stats, empty_cache, mem_get_info.
#include "extras/cuda/cuda_support.h"

#if SPL_TORCH_GENERIC_ACCELERATOR
#include <c10/core/CachingDeviceAllocator.h>
#endif

#include <string>

extern "C" {

// One of the allocator's aggregate figures, by the name of the torch.cuda function that reads it.
SPL_TORCH_EXPORT int64_t rt_torch_cuda_memory_stat(const char* name, int64_t device) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
#if SPL_TORCH_GENERIC_ACCELERATOR
        const auto index = spl::cuda::device(device).index();
        const auto stats = at::getDeviceAllocator(c10::DeviceType::CUDA)->getDeviceStats(index);
        constexpr size_t kAggregate = 0; // StatType::AGGREGATE
        const std::string what(name);
        if (what == "memory_allocated") return stats.allocated_bytes[kAggregate].current;
        if (what == "max_memory_allocated") return stats.allocated_bytes[kAggregate].peak;
        if (what == "memory_reserved") return stats.reserved_bytes[kAggregate].current;
        if (what == "max_memory_reserved") return stats.reserved_bytes[kAggregate].peak;
        TORCH_CHECK(false, "unknown memory statistic \"", what,
                    "\" (memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved)");
#else
        spl::cuda::too_old(name);
#endif
    });
}

SPL_TORCH_EXPORT void rt_torch_cuda_reset_peak_memory_stats(int64_t device) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_GENERIC_ACCELERATOR
        const auto index = spl::cuda::device(device).index(); // first: PyTorch's error without CUDA
        at::getDeviceAllocator(c10::DeviceType::CUDA)->resetPeakStats(index);
#else
        spl::cuda::too_old("reset_peak_memory_stats");
#endif
    });
}

// Releases the cached blocks no tensor uses; nothing where CUDA was never initialised.
SPL_TORCH_EXPORT void rt_torch_cuda_empty_cache(void) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_GENERIC_ACCELERATOR
        spl::cuda::impl();
        at::getDeviceAllocator(c10::DeviceType::CUDA)->emptyCache();
#else
        spl::cuda::too_old("empty_cache");
#endif
    });
}

// torch.cuda.mem_get_info(device): [free, total] bytes, as the driver reports them.
SPL_TORCH_EXPORT SplValue rt_torch_cuda_mem_get_info(int64_t device) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_GENERIC_ACCELERATOR
        const auto index = spl::cuda::device(device).index(); // first, as for reset_peak_memory_stats
        const auto [free, total] = at::getDeviceAllocator(c10::DeviceType::CUDA)->getMemoryInfo(index);
        spl::ResultArena::current().reset();
        SplValue* items = spl::ResultArena::current().values(2);
        items[0] = spl::v_i64(static_cast<int64_t>(free));
        items[1] = spl::v_i64(static_cast<int64_t>(total));
        return spl::v_array(items, 2);
#else
        spl::cuda::too_old("mem_get_info");
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_cuda_memory_stat, "name", "device")
SPL_EXTRA(rt_torch_cuda_reset_peak_memory_stats, "device")
SPL_EXTRA(rt_torch_cuda_empty_cache)
SPL_EXTRA_RETURNS(rt_torch_cuda_mem_get_info, "[i64]", "device")
