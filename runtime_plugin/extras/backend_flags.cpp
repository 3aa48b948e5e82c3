// The switches torch.backends exposes as attributes (torch.backends.cudnn.benchmark,
// torch.backends.cuda.matmul.allow_tf32 ...): LibTorch's global context holds them for the
// whole process, and ATen's kernels read them at each call.
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"

#include <ATen/Context.h>
#include <c10/util/Exception.h>

#include <functional>
#include <map>
#include <string>

namespace {

struct Flag {
    std::function<bool()> get;
    std::function<void(bool)> set;
};

// Named as the Python attribute after "torch.backends.".
const std::map<std::string, Flag>& flags() {
    static const std::map<std::string, Flag> table = [] {
        auto& c = at::globalContext();
        std::map<std::string, Flag> t;
        t["cudnn.enabled"] = {[&c] { return c.userEnabledCuDNN(); }, [&c](bool b) { c.setUserEnabledCuDNN(b); }};
        t["cudnn.benchmark"] = {[&c] { return c.benchmarkCuDNN(); }, [&c](bool b) { c.setBenchmarkCuDNN(b); }};
        t["cudnn.deterministic"] = {[&c] { return c.deterministicCuDNN(); },
                                    [&c](bool b) { c.setDeterministicCuDNN(b); }};
        t["cudnn.allow_tf32"] = {[&c] { return c.allowTF32CuDNN(); }, [&c](bool b) { c.setAllowTF32CuDNN(b); }};
        t["cuda.matmul.allow_tf32"] = {[&c] { return c.allowTF32CuBLAS(); }, [&c](bool b) { c.setAllowTF32CuBLAS(b); }};
        t["mkldnn.enabled"] = {[&c] { return c.userEnabledMkldnn(); }, [&c](bool b) { c.setUserEnabledMkldnn(b); }};
#if SPL_TORCH_AT_LEAST(2, 1)
        // torch.utils.deterministic.fill_uninitialized_memory
        t["deterministic.fill_uninitialized_memory"] = {[&c] { return c.deterministicFillUninitializedMemory(); },
                                                        [&c](bool b) { c.setDeterministicFillUninitializedMemory(b); }};
#endif
        return t;
    }();
    return table;
}

const Flag& flag(const char* name) {
    const auto found = flags().find(name);
    if (found != flags().end()) return found->second;
    std::string known;
    for (const auto& [key, unused] : flags()) known += (known.empty() ? "" : ", ") + key;
    TORCH_CHECK(false, "unknown backend flag \"", name, "\" (", known, ")");
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT bool rt_torch_backend_flag(const char* name) {
    return spl::guarded<bool>(__func__, [&] { return flag(name).get(); });
}

// Sets the flag; returns its previous value (what torch.backends' flags() scopes put back).
SPL_TORCH_EXPORT bool rt_torch_set_backend_flag(const char* name, bool value) {
    return spl::guarded<bool>(__func__, [&] {
        const Flag& f = flag(name);
        const bool previous = f.get();
        f.set(value);
        return previous;
    });
}

// torch.backends.cudnn.version(): cuDNN's version number, or -1 where LibTorch's CUDA part (with
// cuDNN) is not loaded, where PyTorch returns None.
SPL_TORCH_EXPORT int64_t rt_torch_cudnn_version(void) {
    return spl::guarded<int64_t>(__func__, [] {
        if (!at::globalContext().hasCuDNN()) return int64_t{-1};
        return static_cast<int64_t>(at::globalContext().versionCuDNN());
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_backend_flag, "name")
SPL_EXTRA(rt_torch_set_backend_flag, "name", "value")
SPL_EXTRA(rt_torch_cudnn_version)
