#include "abi/function_table.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace spl {

FunctionTable::FunctionTable(std::vector<SplFunction> functions, const char* plugin_name, const char* plugin_version,
                             const char* library_version, const SplFunction* (*find)(const char*))
    : functions_(std::move(functions)) {
    std::sort(functions_.begin(), functions_.end(),
              [](const SplFunction& a, const SplFunction& b) { return std::strcmp(a.name, b.name) < 0; });
    for (size_t i = 1; i < functions_.size(); ++i)
        if (std::strcmp(functions_[i - 1].name, functions_[i].name) == 0)
            throw std::logic_error(std::string("spl_") + plugin_name + ": two functions named " + functions_[i].name);
    info_ = SplPluginInfo{SPL_PLUGIN_ABI_VERSION,
                          plugin_name,
                          plugin_version,
                          library_version,
                          functions_.data(),
                          static_cast<int64_t>(functions_.size()),
                          find};
}

const SplFunction* FunctionTable::find(const char* name) const {
    if (!name) return nullptr;
    auto it = std::lower_bound(functions_.begin(), functions_.end(), name,
                               [](const SplFunction& f, const char* n) { return std::strcmp(f.name, n) < 0; });
    return (it != functions_.end() && std::strcmp(it->name, name) == 0) ? &*it : nullptr;
}

std::string request_refusal(const SplHostRequest* request, const char* plugin, const char* library,
                            const char* library_version) {
    if (!request) return std::string(plugin) + ": spl_plugin_open needs a request";
    if (request->abi_version != SPL_PLUGIN_ABI_VERSION)
        return std::string(plugin) + ": the host speaks plugin ABI version " + std::to_string(request->abi_version) +
               ", this plugin ABI version " + std::to_string(SPL_PLUGIN_ABI_VERSION);
    if (request->expected_library_version && std::strcmp(request->expected_library_version, library_version) != 0)
        return std::string(plugin) + ": the host's declarations were generated for " + library + " " +
               request->expected_library_version + ", but this plugin was built against " + library + " " +
               library_version + "; regenerate or rebuild so they match";
    return "";
}

const char* keep_open_error(std::string message) {
    static thread_local std::string kept; // the host reads it after the call
    kept = std::move(message);
    return kept.c_str();
}

} // namespace spl
