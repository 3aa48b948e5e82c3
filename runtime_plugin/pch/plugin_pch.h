// Precompiled header of the plugin: ATen's core headers cost ~3 s per
// translation unit to parse, paid once here instead of once per shard.
#include "generated_support.h"
