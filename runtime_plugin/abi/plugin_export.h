// The visibility of a plugin's exported C symbols (its ABI: spl_plugin_open, the typed entry
// points, the spl_w_ word adapters); everything else a plugin builds is hidden. Shared by
// libspl_torch and the plugins that do not link LibTorch (libspl_python).
#pragma once

#define SPL_TORCH_EXPORT __attribute__((visibility("default")))
