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
    SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, nullptr}; // no host callbacks
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

inline SplValue i64(int64_t v) {
    SplValue x{};
    x.tag = SPL_I64;
    x.as.i = v;
    return x;
}

// A one-element float32 tensor holding 1.0 on `device`, made through the plugin (rt_torch_from_f64).
inline int64_t make_one(const SplPluginInfo& info, const std::string& device = "cpu") {
    SplValue one{}, size = i64(1), args[5]{};
    one.tag = SPL_F64;
    one.as.f = 1.0;
    args[0].tag = args[1].tag = SPL_ARRAY;
    args[0].as.array = SplArray{&one, 1};
    args[1].as.array = SplArray{&size, 1};
    args[2].tag = args[3].tag = SPL_TEXT;
    args[2].as.text = SplText{"float32", 7};
    args[3].as.text = SplText{device.c_str(), static_cast<int64_t>(device.size())};
    args[4].tag = SPL_BOOL;
    SplValue result{};
    if (function(info, "rt_torch_from_f64").boxed(args, 5, &result) != SPL_STATUS_OK)
        throw std::runtime_error(result.as.text.ptr);
    return result.as.i;
}

// A symbol the plugin exports besides its table (the word convention's state functions).
inline void* symbol(const char* name) {
    void* f = dlsym(library(), name);
    if (!f) throw std::runtime_error(std::string("plugin exports no ") + name);
    return f;
}

} // namespace bench
