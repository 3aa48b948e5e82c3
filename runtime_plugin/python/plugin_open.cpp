// spl_plugin_open for libspl_python: the ABI check and the function table (every entry point
// registers itself with SPL_EXTRA). Opening the plugin does not start Python: the first call does.
#include "python/interpreter.h" // Python.h first, as Python asks: PY_VERSION

#include "abi/function_table.h"
#include "abi/host_callable.h"
#include "abi/extras_registry.h"
#include "abi/plugin_export.h"
#include "spl_plugin.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace {

const SplFunction* find_function(const char* name);

const spl::FunctionTable& table() {
    static const spl::FunctionTable t(
        [] {
            std::vector<SplFunction> functions;
            for (const SplFunction* f : spl::extra_functions()) functions.push_back(*f);
            return functions;
        }(),
        "python", SPL_PYTHON_PLUGIN_VERSION, PY_VERSION, &find_function); // built on first open
    return t;
}

const SplFunction* find_function(const char* name) { return table().find(name); }

} // namespace

extern "C" SPL_TORCH_EXPORT const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error) {
    return spl::open_plugin(request, error, "spl_python", "Python", PY_VERSION, [&] {
        spl::set_host_callbacks(request->callbacks); // Simple functions passed to Python (callables.h)
        return &table().info();
    });
}
