// Fuzzes the object collectives' reader (runtime_plugin/extras/distributed/objects.cpp:
// pt_unpickler.cpp run as pickle.loads, torch.storage._load_from_bytes and torch.save's legacy
// format of a storage): the input is the pickle a rank received, read as a uint8 tensor.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::init();
    const int64_t before = rt_torch_live_handles();
    const int64_t bytes = rt_torch_read_file(fuzz::input_path(data, size));
    if (fuzz::call_failed("rt_torch_read_file")) fuzz::broken("rt_torch_read_file", "the input could not be read");
    const SplValue received =
        rt_torch_dist_unpickle(bytes, static_cast<int64_t>(size)); // ([i64], [text], [f64], [i64])
    if (!fuzz::call_failed("rt_torch_dist_unpickle")) fuzz::release_handles(received.as.array.items[3]);
    rt_torch_release(bytes);
    fuzz::expect_live_handles(before, "rt_torch_dist_unpickle");
    return 0;
}
