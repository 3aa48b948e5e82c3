// Precompiled header of the plugin: ATen's core headers are slow to parse,
// paid once here instead of once per shard.
#include "generated_support.h"
