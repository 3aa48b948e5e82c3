// Runs the GPU checks, or reports them skipped where there is no CUDA device.
#define DOCTEST_CONFIG_IMPLEMENT
#include "../plugin/test_support.h"

#include <ATen/Context.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (!at::hasCUDA()) {
        std::puts("GPU checks skipped: no CUDA device on this machine");
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
