// Loads the plugin into a process that links nothing of LibTorch and checks
// that it loads LibTorch's CUDA part exactly when it can be used: when the
// LibTorch has one and an NVIDIA driver is present (SPL_TORCH_CUDA=1: whenever
// the LibTorch has one; SPL_TORCH_CUDA=0: never), so that
// rt_torch_cuda_is_available tells the truth on a GPU machine and a machine
// without a driver does not pay for loading it. Run once per setting.
#include "spl_plugin.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool cuda_part_loaded() { return dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD) != nullptr; }

SplValue call(const SplPluginInfo* info, const char* name) {
    SplValue result{};
    info->find(name)->boxed(nullptr, 0, &result);
    return result;
}

} // namespace

int main() {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    const char* has_cuda = std::getenv("SPL_TORCH_HAS_CUDA");
    if (!path || !has_cuda) {
        std::puts("set SPL_TORCH_PLUGIN and SPL_TORCH_HAS_CUDA");
        return 2;
    }
    if (cuda_part_loaded()) {
        std::puts("FAIL: libtorch_cuda is loaded before the plugin: the check would prove nothing");
        return 1;
    }
    const std::string setting = std::getenv("SPL_TORCH_CUDA") ? std::getenv("SPL_TORCH_CUDA") : "";
    const bool driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL) != nullptr;
    const bool has_cuda_part = std::string(has_cuda) == "true";
    const bool expected = has_cuda_part && setting != "0" && (driver || setting == "1");

    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::printf("FAIL: %s\n", dlerror());
        return 1;
    }
    auto open = reinterpret_cast<SplPluginOpenFn>(dlsym(lib, SPL_PLUGIN_OPEN_SYMBOL));
    const SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, nullptr}; // no host callbacks
    const SplPluginInfo* info = open(&request, nullptr);
    const bool available = call(info, "rt_torch_cuda_is_available").as.b;
    const std::string status = call(info, "rt_torch_cuda_status").as.text.ptr;
    const bool loaded = cuda_part_loaded();
    std::printf("SPL_TORCH_CUDA=%s, NVIDIA driver: %s, LibTorch has CUDA: %s\n"
                "libtorch_cuda loaded with the plugin: %s (expected: %s); rt_torch_cuda_is_available: %s\n"
                "CUDA %s\n",
                setting.c_str(), driver ? "yes" : "no", has_cuda, loaded ? "yes" : "no", expected ? "yes" : "no",
                available ? "true" : "false", status.c_str());
    int failed = loaded != expected;
    // Not loaded, CUDA is unavailable and the status says why (the first reason, in the order
    // the plugin asks: the setting, then the LibTorch, then the driver).
    const std::string reason = setting == "0"   ? "SPL_TORCH_CUDA=0"
                               : !has_cuda_part ? "no CUDA part"
                                                : "no NVIDIA driver";
    if (!loaded) failed += available || status.find(reason) == std::string::npos;
    std::printf("%d failed\n", failed);
    return failed ? 1 : 0;
}
