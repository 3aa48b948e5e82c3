// The hand-written entry points, merged with the generated ones by
// plugin_open.cpp. Each registers itself with SPL_EXTRA (extra_function.h).
#pragma once

#include "spl_plugin.h"

#include <vector>

namespace spl {
// Every hand-written entry point's registration, sorted by name.
std::vector<const SplFunction*> extra_functions();

// Adds one registration; SPL_EXTRA calls it at the plugin's static
// initialisation. `fn` must live as long as the plugin.
void register_extra(const SplFunction& fn);
} // namespace spl
