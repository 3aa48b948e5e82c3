// Loads the plugin into a process that links nothing of LibTorch and checks
// that libtorch_cuda came with it (when the LibTorch has CUDA), so that
// rt_torch_cuda_is_available can tell the truth on a GPU machine.
#include "spl_plugin.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main() {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    const char* has_cuda = std::getenv("SPL_TORCH_HAS_CUDA");
    if (!path || !has_cuda) {
        std::puts("set SPL_TORCH_PLUGIN and SPL_TORCH_HAS_CUDA");
        return 2;
    }
    if (dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD)) {
        std::puts("FAIL: libtorch_cuda is loaded before the plugin: the check would prove nothing");
        return 1;
    }
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::printf("FAIL: %s\n", dlerror());
        return 1;
    }
    auto open = reinterpret_cast<SplPluginOpenFn>(dlsym(lib, SPL_PLUGIN_OPEN_SYMBOL));
    const SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr};
    const SplPluginInfo* info = open(&request, nullptr);
    SplValue result;
    info->find("rt_torch_cuda_is_available")->boxed(nullptr, 0, &result);
    const bool cuda_loaded = dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD) != nullptr;
    const bool expected = std::string(has_cuda) == "true";
    std::printf("libtorch_cuda loaded with the plugin: %s (LibTorch has CUDA: %s); rt_torch_cuda_is_available: %s\n",
                cuda_loaded ? "yes" : "no", has_cuda, result.as.b ? "true" : "false");
    const int failed = cuda_loaded != expected;
    std::printf("%d passed, %d failed\n", 1 - failed, failed);
    return failed;
}
