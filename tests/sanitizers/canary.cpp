// One deliberate bug per sanitizer, chosen by argv[1], so check_canary.py can
// prove the options of build-asan's test setup are in effect: each finding
// must abort the program, UBSan's included (by default it prints and goes on).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace {

// volatile: the compiler must not fold the bug away.
volatile int64_t big = std::numeric_limits<int64_t>::max();

// Through memcpy (ASan's interceptor), as LibTorch's uninstrumented code would
// reach our memory; a plain out-of-bounds store is caught first by UBSan's
// object-size check.
int heap_overflow() {
    char* buffer = new char[8];
    std::memset(buffer, 1, 8);
    char copy[16] = {};
    volatile size_t n = 9; // one past the end
    std::memcpy(copy, buffer, n);
    delete[] buffer;
    std::printf("%d\n", copy[8]);
    return 0;
}

int signed_overflow() {
    int64_t doubled = big * 2;
    std::printf("%lld\n", static_cast<long long>(doubled));
    return 0;
}

void* volatile last_allocation;

int leak() {
    last_allocation = std::malloc(64);
    last_allocation = nullptr; // the only pointer to it is gone
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const char* kind = argc > 1 ? argv[1] : "";
    if (!std::strcmp(kind, "address")) return heap_overflow();
    if (!std::strcmp(kind, "undefined")) return signed_overflow();
    if (!std::strcmp(kind, "leak")) return leak();
    if (!std::strcmp(kind, "none")) return 0;
    std::fprintf(stderr, "usage: canary address|undefined|leak|none\n");
    return 2;
}
