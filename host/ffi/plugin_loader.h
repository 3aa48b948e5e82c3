// plugin_loader.h — finds, opens and checks native plugins (spl_plugin.h).
//
// A call to an extern `rt_<prefix>_...` is served by `libspl_<prefix>.so`,
// searched in the configured directories (see HostOptions::plugin_dirs) and
// then by the system's dynamic loader. Each plugin is opened once, with the
// ABI version this host was compiled for; every `extern fn` declaration is
// checked against the function the plugin registered under that name.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "syntax/ast.h"
#include "spl_plugin.h"
#include "ffi/typed_call.h"

namespace spl {

// A plugin opened through spl_plugin_open.
struct OpenedPlugin {
    std::string path;
    const SplPluginInfo* info = nullptr;
    PluginErrors errors; // null when the plugin does not export them: calls then go boxed
};

// Why `decl` does not match the function a plugin registered under its name
// (parameter count, names, types, result); "" when it matches.
std::string registration_mismatch(const ast::ExternDecl& decl, const SplFunction& fn);

class PluginLoader {
public:
    // `callbacks`: the host callbacks every plugin is opened with (null: none).
    PluginLoader(std::vector<std::string> search_dirs, const SplHostCallbacks* callbacks)
        : dirs_(std::move(search_dirs)), callbacks_(callbacks) {}
    // Plugins are never dlclose()d: the SplFunction tables they returned are
    // referenced until the end, and libraries like LibTorch do not support
    // being unloaded while the process lives on.
    ~PluginLoader() = default;
    PluginLoader(const PluginLoader&) = delete;
    PluginLoader& operator=(const PluginLoader&) = delete;

    // The function registered for `decl`, after checking that it matches the
    // declaration. Throws ProgramError (ErrorKind::Load) naming what is wrong.
    // `plugin`, when given, is set to the plugin that provides it.
    const SplFunction* bind(const ast::ExternDecl& decl, const OpenedPlugin** plugin = nullptr);

    // libspl_<prefix>.so, opened once; nullptr when it cannot be found or
    // opened, with `why` (and `searched`: the paths tried) saying so.
    const OpenedPlugin* open(const std::string& prefix, std::string& why, std::string& searched);

private:
    const OpenedPlugin& open_for(const std::string& prefix, const ast::ExternDecl& decl);

    std::vector<std::string> dirs_;
    const SplHostCallbacks* callbacks_;
    std::unordered_map<std::string, OpenedPlugin> plugins_;
};

} // namespace spl
