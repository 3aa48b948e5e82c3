// The fuzz targets' shared harness (fuzz_support.h).
#include "fuzz_support.h"

#include <ATen/Parallel.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace fuzz {

void init() {
    static const bool done = [] {
        at::set_num_threads(1);
        at::set_num_interop_threads(1);
        return true;
    }();
    (void)done;
}

const char* input_path(const uint8_t* data, size_t size) {
    static const int fd = memfd_create("fuzz-input", 0);
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (fd < 0 || ftruncate(fd, 0) != 0) broken("memfd", std::strerror(errno));
    size_t done = 0;
    while (done < size) {
        const ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
        if (n <= 0) broken("memfd write", std::strerror(errno));
        done += static_cast<size_t>(n);
    }
    return path.c_str();
}

bool call_failed(const char* what) {
    if (!rt_torch_error_pending()) return false;
    const char* message = rt_torch_last_error();
    if (!message || !*message) broken(what, "failed without a message");
    return true;
}

void release_handles(const SplValue& handles) {
    if (handles.tag != SPL_ARRAY) broken("release_handles", "the handles are not an array");
    // Copied first: releasing a handle is a call into the plugin, which may reuse the result arena.
    std::vector<int64_t> copy;
    for (int64_t i = 0; i < handles.as.array.len; ++i) {
        const SplValue& h = handles.as.array.items[i];
        if (h.tag != SPL_I64) broken("release_handles", "a handle is not an i64");
        copy.push_back(h.as.i);
    }
    for (int64_t h : copy) {
        rt_torch_release(h);
        if (call_failed("rt_torch_release")) broken("rt_torch_release", rt_torch_last_error());
    }
}

void expect_live_handles(int64_t before, const char* what) {
    const int64_t now = rt_torch_live_handles();
    if (now != before) {
        const std::string detail = std::to_string(now - before) + " handle(s) left behind";
        broken(what, detail.c_str());
    }
}

void broken(const char* what, const char* detail) {
    std::fprintf(stderr, "fuzz: %s: %s\n", what, detail ? detail : "");
    std::abort();
}

} // namespace fuzz
