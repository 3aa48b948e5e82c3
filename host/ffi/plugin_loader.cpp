// Finds and opens native plugins through spl_plugin.h and checks extern fns against them.
#include "ffi/plugin_loader.h"

#include <dlfcn.h>

#include "base/diagnostics.h"
#include "ffi/search_paths.h"
#include "syntax/type_expr.h"

namespace spl {

namespace {

std::string plain_type(const std::string& t) { return t.empty() ? "any" : t; }

} // namespace

std::string registration_mismatch(const ast::ExternDecl& decl, const SplFunction& reg_fn) {
    const SplFunction* fn = &reg_fn;
    std::string problem;
    if (static_cast<size_t>(fn->nparams) != decl.params.size()) {
        problem = "parameter count differs: " + std::to_string(decl.params.size()) + " declared, " +
                  std::to_string(fn->nparams) + " registered";
    } else {
        for (size_t i = 0; i < decl.params.size() && problem.empty(); ++i) {
            const SplParam& reg = fn->params[i];
            const ast::Param& dec = decl.params[i];
            if (dec.name != reg.name)
                problem = "parameter " + std::to_string(i + 1) + " is `" + dec.name + "` here, `" + reg.name +
                          "` in the plugin";
            else if (plain_type(dec.type.text) != plain_type(canonical_type(reg.simple_type ? reg.simple_type : "")))
                problem = "parameter `" + dec.name + "` has type " + plain_type(dec.type.text) + " here, " +
                          (reg.simple_type ? reg.simple_type : "?") + " in the plugin";
        }
    }
    if (problem.empty()) {
        std::string reg_ret = canonical_type(fn->return_type ? fn->return_type : "");
        if (reg_ret != decl.return_type.text)
            problem = "the result type is " +
                      (decl.return_type.empty() ? std::string("(none)") : decl.return_type.text) + " here, " +
                      (reg_ret.empty() ? std::string("(none)") : reg_ret) + " in the plugin";
    }
    return problem;
}

const OpenedPlugin* PluginLoader::open(const std::string& prefix, std::string& why, std::string& searched) {
    auto it = plugins_.find(prefix);
    if (it != plugins_.end()) return &it->second;

    const std::string file = "libspl_" + prefix + ".so";
    std::string path;
    void* handle = nullptr;
    for (const std::string& dir : dirs_) {
        std::string candidate = dir + "/" + file;
        searched += "\n     " + candidate;
        if (!is_file(candidate)) continue;
        handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            why = "cannot load plugin " + candidate + ": " + ::dlerror();
            return nullptr;
        }
        path = candidate;
        break;
    }
    if (!handle) { // the system's search path (LD_LIBRARY_PATH, ld.so.cache)
        handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            searched += "\n     and the system library path: " + std::string(::dlerror());
            why = "cannot find plugin " + file;
            return nullptr;
        }
        path = file;
    }
    auto open_fn = reinterpret_cast<SplPluginOpenFn>(::dlsym(handle, SPL_PLUGIN_OPEN_SYMBOL));
    if (!open_fn) {
        why = path + " is not a Simple plugin: it has no `" SPL_PLUGIN_OPEN_SYMBOL "`";
        return nullptr;
    }
    SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, callbacks_};
    const char* refusal = nullptr;
    const SplPluginInfo* info = open_fn(&request, &refusal);
    if (!info) {
        why = "plugin " + path + " refused to load: " + (refusal ? refusal : "(no reason given)");
        return nullptr;
    }
    if (info->abi_version != SPL_PLUGIN_ABI_VERSION) {
        why = "plugin " + path + " speaks plugin ABI " + std::to_string(info->abi_version) + ", this host " +
              std::to_string(SPL_PLUGIN_ABI_VERSION);
        return nullptr;
    }
    PluginErrors errors;
    errors.pending = reinterpret_cast<int64_t (*)(void)>(::dlsym(handle, "spl_w_error_pending"));
    errors.message = reinterpret_cast<int64_t (*)(void)>(::dlsym(handle, "spl_w_last_error"));
    return &plugins_.emplace(prefix, OpenedPlugin{path, info, errors}).first->second;
}

const OpenedPlugin& PluginLoader::open_for(const std::string& prefix, const ast::ExternDecl& decl) {
    std::string why, searched;
    if (const OpenedPlugin* plugin = open(prefix, why, searched)) return *plugin;
    if (why.rfind("cannot find plugin", 0) == 0) {
        ProgramError e(ErrorKind::Load, why + " for extern fn `" + decl.name + "`", decl.loc);
        e.notes.push_back("searched (set SIMPLE_SFFI_PATH to add directories):" + searched);
        throw e;
    }
    if (why.rfind("cannot load plugin", 0) == 0) {
        const size_t colon = why.find(": ");
        why = why.substr(0, colon) + " for `" + decl.name + "`" + why.substr(colon);
    }
    throw_error(ErrorKind::Load, decl.loc, why);
}

const SplFunction* PluginLoader::bind(const ast::ExternDecl& decl, const OpenedPlugin** provider) {
    const std::string& name = decl.name;
    size_t end = name.find('_', 3);
    if (name.rfind("rt_", 0) != 0 || end == std::string::npos || end == 3)
        throw_error(ErrorKind::Load, decl.loc,
                    "extern fn `" + name + "`: no plugin provides it (a plugin function is named `rt_<plugin>_...`)");
    const OpenedPlugin& plugin = open_for(name.substr(3, end - 3), decl);
    const SplFunction* fn = plugin.info->find(name.c_str());
    if (!fn)
        throw_error(ErrorKind::Load, decl.loc,
                    "extern fn `" + name + "` is not provided by " + plugin.path + " (" + plugin.info->plugin_name +
                        " " + plugin.info->plugin_version + ", " + std::to_string(plugin.info->nfunctions) +
                        " functions)");

    const std::string problem = registration_mismatch(decl, *fn);
    if (!problem.empty()) {
        ProgramError e(ErrorKind::Load, "extern fn `" + name + "` does not match its registration in " + plugin.path,
                       decl.loc);
        e.notes.push_back("declared:   " + decl.signature);
        e.notes.push_back("registered: " + std::string(fn->signature ? fn->signature : "?"));
        e.notes.push_back(problem);
        throw e;
    }
    if (provider) *provider = &plugin;
    return fn;
}

} // namespace spl
