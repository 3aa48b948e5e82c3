// Loads LibTorch's CUDA part at plugin load when a CUDA driver is present.
#include "core/cuda_libraries.h"

#include "core/loaded_version.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace spl {
namespace {

std::string dl_error(const char* fallback) {
    const char* why = ::dlerror();
    return why ? why : fallback;
}

struct NotLoaded {
    std::string reason; // "" when loaded
    std::string error;  // what a CUDA operation's error becomes ("" keeps LibTorch's)
};

// A reason that is also the error's text.
NotLoaded not_loaded(const std::string& reason) { return {reason, reason}; }

// Loads libtorch_cuda.so if it should be; says why not otherwise.
NotLoaded load_cuda_libraries() {
    if (cuda_libraries_loaded()) return {};
    const char* setting = std::getenv("SPL_TORCH_CUDA");
    const std::string mode = setting ? setting : "";
    if (mode == "0") return not_loaded("SPL_TORCH_CUDA=0 kept LibTorch's CUDA libraries from loading");
    const std::filesystem::path cpu_library = loaded_libtorch_path();
    const std::filesystem::path cuda_library = cpu_library.parent_path() / "libtorch_cuda.so";
    std::error_code error;
    if (cpu_library.empty() || !std::filesystem::exists(cuda_library, error))
        return {"the LibTorch loaded has no CUDA part (a CPU-only build)", ""}; // its own errors say so
    if (mode != "1") {
        // The driver's library, kept open: libtorch_cuda needs it next anyway.
        if (!::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL))
            return {"no NVIDIA driver was found (" + dl_error("libcuda.so.1 cannot be loaded") +
                        "), so LibTorch's CUDA libraries were not loaded",
                    "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
                    "installed a driver from http://www.nvidia.com/Download/index.aspx"};
    }
    // RTLD_GLOBAL, as when a program is linked against it or preloads it: its NVIDIA libraries
    // (cuDNN) load more libraries of their own later, which then find it and its needs first.
    if (!::dlopen(cuda_library.c_str(), RTLD_NOW | RTLD_GLOBAL))
        return not_loaded("LibTorch's CUDA library failed to load: " + dl_error(cuda_library.c_str()));
    return {};
}

// Runs while the plugin is being loaded, after libtorch_cpu's own initialisers.
const NotLoaded cuda_not_loaded = load_cuda_libraries();

} // namespace

bool cuda_libraries_loaded() noexcept {
    // RTLD_NOLOAD: only asks whether the process has it; nothing new is loaded.
    void* library = ::dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD);
    if (library) ::dlclose(library);
    return library != nullptr;
}

const std::string& cuda_libraries_not_loaded_because() noexcept { return cuda_not_loaded.reason; }

const std::string& cuda_libraries_missing_error() noexcept { return cuda_not_loaded.error; }

} // namespace spl
