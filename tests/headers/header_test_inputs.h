// The inputs of the header front-end tests, as tests/headers/meson.build
// passes them in environment variables.
#pragma once

#include <cstdlib>
#include <string>

namespace header_test_inputs {

// The variable's value, "" when unset: each test decides whether an absent
// input is a failure or a reason to skip.
inline std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

inline std::string libtorch_include() { return env("SPL_LIBTORCH_INCLUDE"); } // the configured LibTorch's include/
inline std::string libtorch_version() { return env("SPL_LIBTORCH_VERSION"); } // "2.15.0"
inline std::string native_functions_yaml() { return env("SPL_NATIVE_FUNCTIONS_YAML"); } // "" for Debian's LibTorch
inline std::string tags_yaml() { return env("SPL_TAGS_YAML"); }
inline std::string frontend_differences() {
    return env("SPL_FRONTEND_DIFFERENCES");
} // schema/frontend_differences.json
inline std::string debian_include() { return env("SPL_DEBIAN_INCLUDE"); } // /usr/include

} // namespace header_test_inputs
