// Fuzzes the torch.save reader (runtime_plugin/extras/io/pt.cpp, pt_archive.cpp: the zip archive
// through zip_reader.cpp, the storages; pt_unpickler.cpp: the pickle program): the input is the
// file, loaded to the CPU.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::init();
    const int64_t before = rt_torch_live_handles();
    const SplValue loaded = rt_torch_pt_load(fuzz::input_path(data, size), "cpu"); // ([i64], [text], [f64], [i64])
    if (!fuzz::call_failed("rt_torch_pt_load")) fuzz::release_handles(loaded.as.array.items[3]);
    fuzz::expect_live_handles(before, "rt_torch_pt_load");
    return 0;
}
