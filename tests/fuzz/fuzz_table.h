// What the boxed and word targets share: the plugin's table (spl_plugin_open), the entry points
// they call, a few small tensors to pass them, and the values a fuzz input picks from.
#pragma once

#include "spl_plugin.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace fuzz {

// The plugin's table, opened once.
const SplPluginInfo& plugin();

// The entry points fuzzed: functions that transform the small tensors below (no factories
// sized by an argument, nothing that writes files or changes global state), chosen so that
// every parameter kind appears: tensors, [i64] (and fixed-size lists), [f64]?, [bool], [any],
// text, text?, f64?, any, any?, bool.
const std::vector<const SplFunction*>& fuzzed_functions();

// Live tensor handles made once: float [2, 3], int64 [2] (indices), bool [2, 3], float
// [1, 1, 4, 4] (an image), float [1, 1, 2, 2] (a kernel), a 0-d float.
const std::vector<int64_t>& tensors();

// Integers a fuzz input picks: small ones (dims, sizes), the extremes, -1, the tensors.
int64_t pick_i64(FuzzedDataProvider& in);
// Doubles: 0, 1.5, -1, NaN, the infinities, the largest, a subnormal, or raw bits.
double pick_f64(FuzzedDataProvider& in);
// Text kept alive in `store` (NUL-terminated): dtype, device and layout names, einsum
// equations, modes, "", or bytes of the input.
const std::string& pick_text(FuzzedDataProvider& in, std::deque<std::string>& store);

// Releases the tensor handles in `result` (at any depth) that were not live before the call
// and are not one of tensors(); returns how many.
int release_new_handles(const SplValue& result);

} // namespace fuzz
