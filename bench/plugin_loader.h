// Loads libspl_torch.so the way a host does (dlopen + spl_plugin_open).
#pragma once

#include "spl_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace bench {

// The plugin's dlopen handle, once open_plugin has opened it.
inline void*& library() {
    static void* lib = nullptr;
    return lib;
}

inline const SplPluginInfo& open_plugin(const char* path) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    library() = lib;
    auto open = reinterpret_cast<SplPluginOpenFn>(dlsym(lib, SPL_PLUGIN_OPEN_SYMBOL));
    if (!open) throw std::runtime_error("no spl_plugin_open in " + std::string(path));
    SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr};
    const char* error = nullptr;
    const SplPluginInfo* info = open(&request, &error);
    if (!info) throw std::runtime_error(error);
    return *info;
}

inline const SplFunction& function(const SplPluginInfo& info, const char* name) {
    const SplFunction* f = info.find(name);
    if (!f) throw std::runtime_error(std::string("plugin has no ") + name);
    return *f;
}

// A symbol the plugin exports besides its table (the word convention's state functions).
inline void* symbol(const char* name) {
    void* f = dlsym(library(), name);
    if (!f) throw std::runtime_error(std::string("plugin exports no ") + name);
    return f;
}

} // namespace bench
