// Fuzzes the CSV reader (runtime_plugin/extras/io/csv.cpp, gzip through zlib). The first input
// byte picks the options (delimiter, dtype, header lines to skip); the rest is the file, so
// that the corpus holds gzip files as well as text.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    fuzz::init();
    static const char* const delimiters[] = {",", ";", "\t", " "};
    static const char* const dtypes[] = {"", "float64", "int64", "bool", "uint8", "int32", "float16", "uint64"};
    const uint8_t options = data[0];
    const char* delimiter = delimiters[options & 3];
    const char* dtype = dtypes[(options >> 2) & 7];
    const int64_t skip_header = options >> 5; // 0 to 7
    const int64_t before = rt_torch_live_handles();
    const int64_t t = rt_torch_read_csv(fuzz::input_path(data + 1, size - 1), delimiter, skip_header, dtype);
    if (!fuzz::call_failed("rt_torch_read_csv")) rt_torch_release(t);
    fuzz::expect_live_handles(before, "rt_torch_read_csv");
    return 0;
}
