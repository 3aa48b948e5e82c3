// Fuzzes the IDX reader (runtime_plugin/extras/io/idx.cpp, read through zlib): the input is the
// file. A load either fails with a message or gives a tensor, released again.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::init();
    const int64_t before = rt_torch_live_handles();
    const int64_t t = rt_torch_read_idx(fuzz::input_path(data, size));
    if (!fuzz::call_failed("rt_torch_read_idx")) rt_torch_release(t);
    fuzz::expect_live_handles(before, "rt_torch_read_idx");
    return 0;
}
