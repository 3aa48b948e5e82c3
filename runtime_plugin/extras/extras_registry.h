#pragma once

#include "spl_plugin.h"

#include <vector>

namespace spl {
// Every hand-written entry point's registration.
std::vector<const SplFunction*> extra_functions();
} // namespace spl
