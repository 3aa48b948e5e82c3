// What every plugin's spl_plugin_open shares (libspl_torch's plugin_open.cpp, libspl_python's
// python/plugin_open.cpp): the sorted table of its functions that SplPluginInfo hands out, and
// the checks of the host's request. ATen-free.
#pragma once

#include "spl_plugin.h"

#include <exception>
#include <string>
#include <vector>

namespace spl {

class FunctionTable {
public:
    // `functions` in any order (sorted here; two of one name is a std::logic_error naming it).
    // `find` is the plugin's C function that calls this table's find (SplPluginInfo.find takes
    // no context). The texts must outlive the table.
    FunctionTable(std::vector<SplFunction> functions, const char* plugin_name, const char* plugin_version,
                  const char* library_version, const SplFunction* (*find)(const char*));
    FunctionTable(const FunctionTable&) = delete;
    FunctionTable& operator=(const FunctionTable&) = delete;

    const SplPluginInfo& info() const { return info_; }
    const SplFunction* find(const char* name) const; // nullptr when there is none

private:
    std::vector<SplFunction> functions_;
    SplPluginInfo info_{};
};

// Why `plugin` ("spl_torch") cannot serve `request`, or "" when it can: no request, another ABI
// version, or another library version than the host expects (`library` names the library in
// the message: "LibTorch", "Python").
std::string request_refusal(const SplHostRequest* request, const char* plugin, const char* library,
                            const char* library_version);

// The message of a refused spl_plugin_open, kept for the host (per thread, until the next open).
const char* keep_open_error(std::string message);

// The body of a plugin's spl_plugin_open: the request checked (request_refusal), then `open()`,
// which returns the plugin's info or throws a std::exception whose text is the refusal
// (prefixed with `plugin`); a refusal is NULL with `*error` set.
template <class Open>
const SplPluginInfo* open_plugin(const SplHostRequest* request, const char** error, const char* plugin,
                                 const char* library, const char* library_version, Open&& open) {
    std::string refusal;
    try {
        refusal = request_refusal(request, plugin, library, library_version);
        if (refusal.empty()) return open();
    } catch (const std::exception& e) {
        refusal = std::string(plugin) + ": " + e.what();
    }
    const char* message = keep_open_error(std::move(refusal));
    if (error) *error = message;
    return nullptr;
}

} // namespace spl
