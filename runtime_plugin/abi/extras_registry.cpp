// The registry of hand-written entry points: each SPL_EXTRA adds its function
// here while the plugin is loaded, so no list names them all.
#include "abi/extras_registry.h"

#include <algorithm>
#include <cstring>

namespace spl {

namespace {

// Constructed on first use: the registrations run during the static
// initialisation of several translation units, in no specified order, and the
// first of them may come before this file's own globals would be ready.
// Written only during that initialisation, read-only afterwards.
std::vector<const SplFunction*>& registrations() {
    static std::vector<const SplFunction*> list;
    return list;
}

} // namespace

void register_extra(const SplFunction& fn) { registrations().push_back(&fn); }

// Complete when read: plugin_open.cpp calls this on the first spl_plugin_open,
// and a host can only call that after dlopen has run every static initialiser
// of the plugin.
std::vector<const SplFunction*> extra_functions() {
    std::vector<const SplFunction*> sorted = registrations();
    std::sort(sorted.begin(), sorted.end(),
              [](const SplFunction* a, const SplFunction* b) { return std::strcmp(a->name, b->name) < 0; });
    return sorted;
}

} // namespace spl
