// LibTorch's exceptions as messages (library_exception_text, abi/error_guard.h): c10::Error's text
// without its backtrace, with the notes a PyTorch user needs (the translation itself and the
// error state are ATen-free, in abi/error_state.cpp).
#include "abi/error_guard.h"

#include "core/cuda_libraries.h"

#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cctype>

namespace spl {
namespace {

// LibTorch's CUDA errors spell it in capitals ("CUDA error", "the 'CUDA' backend", "Torch not
// compiled with CUDA enabled") or name the driver, or say that CUDA is missing (1.13: "not linked
// with support for cuda devices"); a lower-case "cuda" elsewhere is a device's or a setting's name
// in some other error (a bad device string, an unknown flag), which stays as it is.
bool mentions_cuda(const std::string& message) {
    for (const char* needle : {"CUDA", "NVIDIA", "cuda runtime error", "support for cuda devices"})
        if (message.find(needle) != std::string::npos) return true;
    return false;
}

// On a machine without a GPU, LibTorch's CUDA errors name a symptom ("CUDA
// driver version is insufficient for CUDA runtime version", "Torch not
// compiled with CUDA enabled"), not the plain fact a user can act on. Said
// here once for every entry point; LibTorch's own text stays, the note ends
// its first line (the headline; CUDA's advice lines follow). Where the plugin
// did not load LibTorch's CUDA libraries, the dispatcher's "no kernel for the
// 'CUDA' backend" is replaced by the reason (core/cuda_libraries.h).
void explain_missing_cuda(std::string& message) noexcept {
    try {
        if (!mentions_cuda(message)) return;
        if (!cuda_libraries_loaded() && !cuda_libraries_missing_error().empty())
            message = cuda_libraries_missing_error();
        const auto& hooks = at::detail::getCUDAHooks();
        if (hooks.hasCUDA() && hooks.getNumGPUs() > 0) return;
        const size_t first_line_end = std::min(message.find('\n'), message.size());
        message.insert(first_line_end, " (no CUDA device is available: torch.cuda.is_available() is false)");
    } catch (...) {
        // The message as LibTorch wrote it is still right.
    }
}

void rename_types(std::string& message);

// LibTorch names a tensor's type in a few messages (a saved tensor modified in place) as
// "[CPUDoubleType [3]]", where PyTorch prints "[torch.DoubleTensor [3]]" (and
// "torch.cuda.FloatTensor"): the name a PyTorch user searches for.
void python_type_names(std::string& message) noexcept {
    try {
        rename_types(message);
    } catch (...) {
        // The message as LibTorch wrote it is still right.
    }
}

void rename_types(std::string& message) {
    static const std::string kSuffix = "Type [";
    for (size_t at = message.find(kSuffix); at != std::string::npos; at = message.find(kSuffix, at + 1)) {
        const size_t open = message.rfind('[', at);
        if (open == std::string::npos) break;
        const std::string token = message.substr(open + 1, at - open - 1);
        std::string prefix, scalar;
        if (token.rfind("CPU", 0) == 0) {
            prefix = "torch.";
            scalar = token.substr(3);
        } else if (token.rfind("CUDA", 0) == 0) {
            prefix = "torch.cuda.";
            scalar = token.substr(4);
        }
        const bool plain = !scalar.empty() && std::all_of(scalar.begin(), scalar.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0;
        });
        if (!plain) continue;
        message.replace(open + 1, at + 4 - open - 1, prefix + scalar + "Tensor");
    }
}

} // namespace

std::string library_exception_text(const std::exception& e) noexcept {
    const auto* error = dynamic_cast<const c10::Error*>(&e);
    if (!error) return e.what();
    // LibTorch's message without the C++ backtrace: that is what a Simple programmer can act on.
    std::string message = error->what_without_backtrace();
    explain_missing_cuda(message);
    python_type_names(message);
    return message;
}

} // namespace spl
