// stack_limit.h — how far down the running thread's machine stack may grow before
// the interpreter refuses to call deeper.
//
// --max-depth counts calls, but what one call costs on the stack depends on how
// deeply its body nests (up to kMaxNesting levels, nesting.h), and a sanitizer build's
// frames are several times larger: each call also checks the stack actually left,
// so that deep recursion through deeply nested bodies ends in "stack overflow"
// and not in SIGSEGV.
#pragma once

#include <pthread.h>

#include <algorithm>
#include <cstddef>

namespace spl {

#if defined(__SANITIZE_ADDRESS__)
#define SPL_STACK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPL_STACK_SANITIZED 1
#endif
#endif

// The address below which a call is refused: the thread's lowest stack address
// plus a reserve for what runs between two calls' checks (a body nested to the
// limit, a module parsed and resolved on `use`, a plugin call, the error's own
// unwinding). Null when the stack's extent is unknown (no check).
//
// Under AddressSanitizer at most 48 MiB are used: an exception thrown with more than
// 64 MiB of the stack in use is not unpoisoned (its __asan_handle_no_return gives up
// with "False positive error reports may follow", and they do), and the error this
// check raises is such an exception.
inline const char* call_stack_floor() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return nullptr;
    void* low = nullptr;
    size_t size = 0;
    const bool known = pthread_attr_getstack(&attr, &low, &size) == 0 && low && size > 0;
    pthread_attr_destroy(&attr);
    if (!known) return nullptr;
    const char* floor = static_cast<const char*>(low) + std::min(size / 4, size_t(64) << 20);
#ifdef SPL_STACK_SANITIZED
    const size_t sanitized_use = size_t(48) << 20;
    if (size > sanitized_use) floor = std::max(floor, static_cast<const char*>(low) + (size - sanitized_use));
#endif
    return floor;
}

// True when the caller's frame lies below `floor` (the stack grows down).
inline bool stack_below(const char* floor) {
    return floor && static_cast<const char*>(__builtin_frame_address(0)) < floor;
}

} // namespace spl
