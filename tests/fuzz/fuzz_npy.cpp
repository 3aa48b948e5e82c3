// Fuzzes the NumPy readers (runtime_plugin/extras/io/npy.cpp, npz.cpp and zip_reader.cpp): the
// same input is read as a .npy file and as a .npz archive.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::init();
    const int64_t before = rt_torch_live_handles();
    const char* path = fuzz::input_path(data, size);
    const int64_t t = rt_torch_load_npy(path);
    if (!fuzz::call_failed("rt_torch_load_npy")) rt_torch_release(t);
    fuzz::expect_live_handles(before, "rt_torch_load_npy");

    const SplValue loaded = rt_torch_load_npz(path); // ([text], [i64])
    if (!fuzz::call_failed("rt_torch_load_npz")) fuzz::release_handles(loaded.as.array.items[1]);
    fuzz::expect_live_handles(before, "rt_torch_load_npz");
    return 0;
}
