// Loads libspl_torch_cuda.so from the plugin's own folder, once.
#include "core/cuda_companion.h"

#include "core/cuda_libraries.h"

#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/util/Exception.h>

#include <dlfcn.h>

#include <filesystem>
#include <mutex>
#include <string>

namespace spl {
namespace {

struct Loaded {
    const SplCudaApi* api = nullptr;
    std::string error;
};

Loaded load_companion() {
    Dl_info self{};
    if (!::dladdr(reinterpret_cast<void*>(&load_companion), &self) || !self.dli_fname)
        return {nullptr, "cannot find the plugin's own file to load libspl_torch_cuda.so beside it"};
    const auto path = std::filesystem::path(self.dli_fname).parent_path() / "libspl_torch_cuda.so";
    std::error_code missing;
    if (!std::filesystem::exists(path, missing))
        return {nullptr, "lib.torch's CUDA companion " + path.string() +
                             " was not built (the plugin was built against a LibTorch without CUDA, or "
                             "without the CUDA headers): CUDA graphs, device properties and NCCL need it"};
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = ::dlerror();
        return {nullptr, "lib.torch's CUDA companion failed to load: " + std::string(why ? why : path.string())};
    }
    using Entry = const SplCudaApi* (*)();
    auto entry = reinterpret_cast<Entry>(::dlsym(library, "spl_torch_cuda_api"));
    if (!entry) return {nullptr, "lib.torch's CUDA companion " + path.string() + " has no spl_torch_cuda_api"};
    const SplCudaApi* api = entry();
    if (!api || api->abi != SPL_TORCH_CUDA_ABI)
        return {nullptr, "lib.torch's CUDA companion " + path.string() + " is from another build of the plugin"};
    return {api, ""};
}

} // namespace

void require_cuda() {
    if (!cuda_libraries_loaded()) {
        const std::string& why = cuda_libraries_missing_error();
        TORCH_CHECK(false, why.empty() ? "Torch not compiled with CUDA enabled" : why);
    }
    TORCH_CHECK(at::detail::getCUDAHooks().getNumGPUs() > 0, "No CUDA GPUs are available");
}

const SplCudaApi& cuda_companion() {
    require_cuda();
    static const Loaded loaded = load_companion();
    TORCH_CHECK(loaded.api, loaded.error);
    return *loaded.api;
}

void check_companion(const char* error) { TORCH_CHECK(error == nullptr, error ? error : ""); }

} // namespace spl
