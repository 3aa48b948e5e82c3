// spl_plugin_open for libspl_python: the ABI check and the function table (every entry point
// registers itself with SPL_EXTRA). Opening the plugin does not start Python: the first call does.
#include "python/interpreter.h" // Python.h first, as Python asks: PY_VERSION

#include "core/host_callable.h"
#include "extras/extras_registry.h"
#include "plugin_export.h"
#include "spl_plugin.h"

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

private:
    FunctionTable() {
        for (const SplFunction* f : spl::extra_functions()) functions_.push_back(*f); // sorted by name
        for (size_t i = 1; i < functions_.size(); ++i)
            if (std::strcmp(functions_[i - 1].name, functions_[i].name) == 0)
                throw std::logic_error(std::string("two functions named ") + functions_[i].name);
        info_ = SplPluginInfo{SPL_PLUGIN_ABI_VERSION,
                              "python",
                              SPL_PYTHON_PLUGIN_VERSION,
                              PY_VERSION,
                              functions_.data(),
                              static_cast<int64_t>(functions_.size()),
                              &find_function};
    }

    static const SplFunction* find_function(const char* name) {
        const auto& fns = instance().functions_;
        if (!name) return nullptr;
        size_t lo = 0, hi = fns.size();
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            const int c = std::strcmp(fns[mid].name, name);
            if (c == 0) return &fns[mid];
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        return nullptr;
    }

    std::vector<SplFunction> functions_;
    SplPluginInfo info_{};
};

thread_local std::string open_error;

} // namespace

extern "C" SPL_TORCH_EXPORT const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error) {
    try {
        if (!request) {
            open_error = "spl_python: spl_plugin_open needs a request";
        } else if (request->abi_version != SPL_PLUGIN_ABI_VERSION) {
            open_error = "spl_python: the host speaks plugin ABI version " + std::to_string(request->abi_version) +
                         ", this plugin ABI version " + std::to_string(SPL_PLUGIN_ABI_VERSION);
        } else if (request->expected_library_version &&
                   std::strcmp(request->expected_library_version, PY_VERSION) != 0) {
            open_error = std::string("spl_python: the host expects library version ") +
                         request->expected_library_version + ", this plugin embeds Python " + PY_VERSION;
        } else {
            spl::set_host_callbacks(request->callbacks); // Simple functions passed to Python (callables.h)
            return &FunctionTable::instance().info();
        }
    } catch (const std::exception& e) {
        open_error = std::string("spl_python: ") + e.what();
    }
    if (error) *error = open_error.c_str();
    return nullptr;
}
