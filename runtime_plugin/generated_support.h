// What every generated translation unit includes: the runtime core that the
// type table's conversions name, and the registration table's declaration.
#pragma once

#include "spl_plugin.h"
#include "abi/plugin_export.h"
#include "core/abi_args.h"
#include "abi/boxed_args.h"
#include "abi/error_guard.h"
#include "core/results.h"

#include <limits>
#include <tuple>

extern const SplFunction* const spl_torch_generated_functions[]; // each entry's object, sorted by name
extern const int64_t spl_torch_generated_count;
extern const char spl_torch_generated_libtorch_version[];
