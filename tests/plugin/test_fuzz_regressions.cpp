// Findings of the fuzz targets (tests/fuzz/), each turned into a test in the normal build:
// the input that found it (tests/fuzz/regressions/<target>/) or the calls it made, fed to the
// same entry points, must now end in a clean error naming the problem.
#include "test_support.h"

#include <dlfcn.h>

#include <cstdlib>

using namespace plugin_test;

namespace {

using Word0 = int64_t (*)();
using Word1 = int64_t (*)(int64_t);
using Push = int64_t (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

template <class Fn>
Fn symbol(const char* name) {
    static void* lib = ::dlopen(std::getenv("SPL_TORCH_PLUGIN"), RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(lib);
    void* f = ::dlsym(lib, name);
    REQUIRE_MESSAGE(f, name);
    return reinterpret_cast<Fn>(f);
}

int64_t push(int64_t list, int64_t tag, int64_t word) {
    return symbol<Push>("spl_w_list_push")(list, tag, 1, word, 0, 0, 0, 0);
}

void expect_push_refused(int64_t result, const std::string& fragment) {
    CHECK(result == 0);
    REQUIRE(symbol<Word0>("spl_w_error_pending")() == 1);
    const std::string message = reinterpret_cast<const char*>(symbol<Word0>("spl_w_last_error")());
    CHECK_MESSAGE(message.find(fragment) != std::string::npos, message);
}

} // namespace

// tests/fuzz/regressions/word/list_holds_itself: a list pushed into itself made a cycle of
// shared references, never freed (LeakSanitizer), and a call given the list recursed without end.
TEST_CASE_FIXTURE(LeakChecked, "word lists: a push that would make a list hold itself is refused") {
    const int64_t a = symbol<Word0>("spl_w_list_new")();
    const int64_t b = symbol<Word0>("spl_w_list_new")();
    expect_push_refused(push(a, SPL_ARRAY, a), "item 0: a list cannot hold itself");
    CHECK(symbol<Word1>("spl_w_list_len")(a) == 0); // the refused push appended nothing
    // Through another list too: b holds a, so a may not hold b.
    REQUIRE(push(b, SPL_ARRAY, a) == b);
    expect_push_refused(push(a, SPL_ARRAY, b), "a list cannot hold itself");
    // Holding the same list twice is no cycle.
    REQUIRE(push(b, SPL_ARRAY, a) == b);
    CHECK(symbol<Word1>("spl_w_list_len")(b) == 2);
    plugin().free(a);
    plugin().free(b);
}

// tests/fuzz/regressions/word/slow_conv2d_backward_kernel_mismatch: the word target called
// _slow_conv2d_backward.output_mask with a kernel_size its weight disagrees with, and LibTorch
// read past its buffers (Python's torch.ops.aten._slow_conv2d_backward segfaults the same way on
// the pin). schema/policy.json now leaves its three overloads unbound, with that reason: no entry
// point, typed, boxed or word, reaches it.
TEST_CASE("fuzz finding: LibTorch's unchecked _slow_conv2d_backward has no entry point") {
    for (const char* name : {"rt_torch__slow_conv2d_backward_output_mask", "rt_torch__slow_conv2d_backward_grad_input",
                             "rt_torch__slow_conv2d_backward_output_mask_out"}) {
        CHECK_MESSAGE(plugin().info().find(name) == nullptr, name);
        CHECK_MESSAGE(::dlsym(RTLD_DEFAULT, (std::string("spl_w_") + name).c_str()) == nullptr, name);
    }
}
