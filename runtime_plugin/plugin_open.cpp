// spl_plugin_open: the plugin's one entry symbol. Checks the host's ABI and
// LibTorch expectations and hands out the function table.
#include "core/loaded_version.h"
#include "extras/extras_registry.h"
#include "generated_support.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

class FunctionTable {
public:
    static const FunctionTable& instance() {
        static const FunctionTable table; // built once, on first open
        return table;
    }

    const SplPluginInfo& info() const { return info_; }

    const SplFunction* find(const char* name) const {
        if (!name) return nullptr;
        auto it = std::lower_bound(functions_.begin(), functions_.end(), name,
                                   [](const SplFunction& f, const char* n) { return std::strcmp(f.name, n) < 0; });
        return (it != functions_.end() && std::strcmp(it->name, name) == 0) ? &*it : nullptr;
    }

private:
    FunctionTable() {
        functions_.assign(spl_torch_generated_functions, spl_torch_generated_functions + spl_torch_generated_count);
        for (const SplFunction* extra : spl::extra_functions()) functions_.push_back(*extra);
        std::sort(functions_.begin(), functions_.end(),
                  [](const SplFunction& a, const SplFunction& b) { return std::strcmp(a.name, b.name) < 0; });
        for (size_t i = 1; i < functions_.size(); ++i)
            if (std::strcmp(functions_[i - 1].name, functions_[i].name) == 0)
                throw std::logic_error(std::string("spl_torch: two functions named ") + functions_[i].name);
        info_ = SplPluginInfo{SPL_PLUGIN_ABI_VERSION, "torch", "0.1.0", spl_torch_generated_libtorch_version,
                              functions_.data(), static_cast<int64_t>(functions_.size()), &find_function};
    }

    static const SplFunction* find_function(const char* name) { return instance().find(name); }

    std::vector<SplFunction> functions_;
    SplPluginInfo info_{};
};

// Static: the message must outlive the call, and is the same for every caller.
thread_local std::string open_error;

} // namespace

extern "C" SPL_TORCH_EXPORT const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error) {
    try {
        if (!request) {
            open_error = "spl_torch: spl_plugin_open needs a request";
        } else if (request->abi_version != SPL_PLUGIN_ABI_VERSION) {
            open_error = "spl_torch: the host speaks plugin ABI version " + std::to_string(request->abi_version) +
                         ", this plugin ABI version " + std::to_string(SPL_PLUGIN_ABI_VERSION);
        } else if (request->expected_library_version &&
                   std::strcmp(request->expected_library_version, spl_torch_generated_libtorch_version) != 0) {
            open_error = std::string("spl_torch: the host's declarations were generated for LibTorch ") +
                         request->expected_library_version + ", but this plugin was built against LibTorch " +
                         spl_torch_generated_libtorch_version + "; regenerate or rebuild so they match";
        } else if (const std::string loaded = spl::loaded_libtorch_version();
                   !loaded.empty() && spl::release_of(loaded) != spl_torch_generated_libtorch_version) {
            open_error = std::string("spl_torch: this plugin was built against LibTorch ") +
                         spl_torch_generated_libtorch_version + ", but the LibTorch loaded in this process is " +
                         loaded + "; rebuild the plugin against it";
        } else {
            return &FunctionTable::instance().info();
        }
    } catch (const std::exception& e) {
        open_error = std::string("spl_torch: ") + e.what();
    }
    if (error) *error = open_error.c_str();
    return nullptr;
}
