// The peak of the CPU memory tensors hold, over a region of this thread: LibTorch's memory
// reporting (what PyTorch's profiler with profile_memory reads), for measuring what a
// computation keeps alive (bench/checkpoint_memory.py: checkpointing against plain training).
#include "extras/extra_function.h"

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <tuple>

namespace {

// reportMemoryUsage's byte counts are size_t in LibTorch 2.x, int64_t in 1.13: taken from it.
template <class T>
struct ParamsOf;
template <class R, class C, class... A>
struct ParamsOf<R (C::*)(A...)> {
    using type = std::tuple<A...>;
};
using Total = std::tuple_element_t<2, ParamsOf<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::type>;

// Counts what the CPU allocator hands out and takes back while it is the thread's reporter.
class PeakReporter : public c10::MemoryReportingInfoBase {
public:
    void reportMemoryUsage(void* /*ptr*/, int64_t alloc_size, Total /*allocated*/, Total /*reserved*/,
                           c10::Device device) override {
        if (device.type() != c10::DeviceType::CPU) return;
        live += alloc_size;
        peak = std::max(peak, live);
    }
    bool memoryProfilingEnabled() const override { return true; }
    int64_t live = 0;
    int64_t peak = 0;
};

// A region of this thread while its handle lives: its reporter is pushed on entry and popped
// when the handle is freed (regions end in the reverse order of entry, on their thread).
class MemoryPeakRegion : public spl::HandleObject {
public:
    static constexpr const char* kKind = "a memory-peak region";
    MemoryPeakRegion() : reporter(std::make_shared<PeakReporter>()) {
        c10::ThreadLocalDebugInfo::_push(c10::DebugInfoKind::PROFILER_STATE, reporter);
    }
    ~MemoryPeakRegion() override {
        try {
            c10::ThreadLocalDebugInfo::_pop(c10::DebugInfoKind::PROFILER_STATE);
        } catch (...) {
            // Freed out of order or on another thread: the reporter stays until its thread's
            // stack unwinds; it only counts.
        }
    }
    const char* kind() const noexcept override { return kKind; }
    const std::shared_ptr<PeakReporter> reporter;
};

} // namespace

extern "C" {

// Starts counting this thread's CPU tensor memory; the handle ends the region when freed.
SPL_TORCH_EXPORT int64_t rt_torch_memory_peak_begin(void) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::HandleTable::instance().insert_object(std::make_shared<MemoryPeakRegion>()); });
}

// The most bytes allocated at once (above the region's start) so far in the region.
SPL_TORCH_EXPORT int64_t rt_torch_memory_peak_bytes(int64_t region) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::HandleTable::instance()
            .object<MemoryPeakRegion>(region, "region", MemoryPeakRegion::kKind)
            ->reporter->peak;
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_memory_peak_begin)
SPL_EXTRA(rt_torch_memory_peak_bytes, "region")
