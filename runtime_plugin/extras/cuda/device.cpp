// torch.cuda's device functions (is_available and device_count are runtime_info.cpp's): current_device, set_device,
// synchronize, get_device_name/capability/properties, manual_seed_all.
#include "extras/cuda/cuda_support.h"

#include "core/cuda_libraries.h"

#include <ATen/Context.h>
#include <ATen/detail/CUDAHooksInterface.h>

#include <mutex>

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_cuda_current_device(void) {
    return spl::guarded<int64_t>(__func__, [] { return static_cast<int64_t>(spl::cuda::impl().getDevice().index()); });
}

SPL_TORCH_EXPORT void rt_torch_cuda_set_device(int64_t index) {
    spl::guarded<void>(__func__, [&] {
        if (index < 0) return; // torch.cuda.set_device ignores a negative index
        spl::cuda::impl().setDevice(spl::cuda::device(index));
    });
}

// torch.cuda.synchronize(device): waits for every stream of the device.
SPL_TORCH_EXPORT void rt_torch_cuda_synchronize(int64_t index) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_GENERIC_ACCELERATOR
        spl::cuda::impl().synchronizeDevice(spl::cuda::device(index).index());
#else
        spl::cuda::too_old("synchronize");
#endif
    });
}

// get_device_properties(device): name, then [major, minor, total_memory, multi_processor_count].
SPL_TORCH_EXPORT const char* rt_torch_cuda_device_name(int64_t index) {
    return spl::guarded<const char*>(__func__, [&] {
        SplCudaDeviceProperties p;
        spl::check_companion(spl::cuda_companion().device_properties(spl::cuda::device(index).index(), &p));
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(p.name);
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_cuda_device_numbers(int64_t index) {
    return spl::guarded<SplValue>(__func__, [&] {
        SplCudaDeviceProperties p;
        spl::check_companion(spl::cuda_companion().device_properties(spl::cuda::device(index).index(), &p));
        spl::ResultArena::current().reset();
        SplValue* items = spl::ResultArena::current().values(4);
        const int64_t numbers[] = {p.major, p.minor, p.total_memory, p.multi_processor_count};
        for (int i = 0; i < 4; ++i) items[i] = spl::v_i64(numbers[i]);
        return spl::v_array(items, 4);
    });
}

// torch.cuda.manual_seed_all: every device's default generator; nothing where CUDA cannot run
// (PyTorch defers it to initialisation, which never comes there).
SPL_TORCH_EXPORT void rt_torch_cuda_manual_seed_all(int64_t seed) {
    spl::guarded<void>(__func__, [&] {
        if (!spl::cuda_libraries_loaded()) return;
#if SPL_TORCH_GENERIC_ACCELERATOR
        const auto& hooks = at::detail::getCUDAHooks();
        for (int64_t i = 0; i < hooks.getNumGPUs(); ++i) {
            at::Generator gen = hooks.getDefaultGenerator(static_cast<c10::DeviceIndex>(i));
            std::lock_guard<std::mutex> lock(gen.mutex());
            gen.set_current_seed(static_cast<uint64_t>(seed));
        }
#else
        spl::cuda::too_old("manual_seed_all");
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_cuda_current_device)
SPL_EXTRA(rt_torch_cuda_set_device, "device")
SPL_EXTRA(rt_torch_cuda_synchronize, "device")
SPL_EXTRA(rt_torch_cuda_device_name, "device")
SPL_EXTRA_RETURNS(rt_torch_cuda_device_numbers, "[i64]", "device")
SPL_EXTRA(rt_torch_cuda_manual_seed_all, "seed")
