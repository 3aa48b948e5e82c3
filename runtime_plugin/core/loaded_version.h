// Which LibTorch this process actually loaded (as opposed to the one the
// plugin was compiled against): the plugin refuses to run on another one.
#pragma once

#include <string>

namespace spl {

// The loaded LibTorch's version ("2.15.0"), read next to its libtorch_cpu:
// a versioned file name (libtorch_cpu.so.1.13.0: distributions), a
// build-version file (an unzipped LibTorch) or torch/version.py (the pip
// wheel). "" when none of these says.
std::string loaded_libtorch_version();
// The file of the libtorch_cpu this process loaded, resolved ("" if unknown).
std::string loaded_libtorch_path();

// "2.15.0+cu132" -> "2.15.0".
std::string release_of(const std::string& version);

} // namespace spl
