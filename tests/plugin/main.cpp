// Runs the plugin tests, then reports how many distinct operator entry points
// went through the boxed thunks (and fails a full run that exercised too few).
#define DOCTEST_CONFIG_IMPLEMENT
#include "plugin_host.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <exception>

namespace {
constexpr size_t kMinimumOperators = 60;
}

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int failed = context.run();
    if (context.shouldExit()) return failed;

    size_t operators = 0;
    try {
        operators = plugin_host::Plugin::instance().operators_called().size();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "plugin not loaded: %s\n", e.what());
        return 1;
    }
    std::printf("distinct operator entry points exercised through the boxed thunks: %zu\n", operators);
    // A filtered run (doctest -tc=..., as a developer would use) covers less.
    if (argc == 1 && operators < kMinimumOperators) {
        std::fprintf(stderr, "expected at least %zu distinct operators, got %zu\n", kMinimumOperators, operators);
        return 1;
    }
    return failed;
}
