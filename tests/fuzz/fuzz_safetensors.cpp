// Fuzzes the safetensors reader (runtime_plugin/extras/io/safetensors.cpp): the input is the
// file, loaded whole and read for its metadata.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::init();
    const int64_t before = rt_torch_live_handles();
    const char* path = fuzz::input_path(data, size);
    const SplValue loaded = rt_torch_safetensors_load(path); // ([text], [i64])
    if (!fuzz::call_failed("rt_torch_safetensors_load")) fuzz::release_handles(loaded.as.array.items[1]);
    fuzz::expect_live_handles(before, "rt_torch_safetensors_load");

    rt_torch_safetensors_metadata(path);
    fuzz::call_failed("rt_torch_safetensors_metadata");
    return 0;
}
