// The word convention (spl_plugin.h) is not offered by libspl_python: its functions take
// Python objects as handles into this plugin's own table, and the word lists live in the torch
// plugin's. Every SPL_EXTRA still gets its `spl_w_` adapter (the ABI says SplFunction.word is
// never NULL); each fails with this error.
#include "abi/word_call.h"

#include "abi/error_guard.h"

#include <string>

namespace spl {

int64_t word_call(const SplFunction& fn, const int64_t (&)[SPL_MAX_WORDS]) noexcept {
    return guarded<int64_t>(fn.name, []() -> int64_t {
        throw SplError("no word adapters in libspl_python (call it through the boxed or typed convention)");
    });
}

} // namespace spl

extern "C" {

__attribute__((visibility("default"))) int64_t spl_w_error_pending(void) { return spl::t_error_pending ? 1 : 0; }
__attribute__((visibility("default"))) int64_t spl_w_last_error(void) {
    return reinterpret_cast<int64_t>(spl::thread_error_message().c_str());
}

} // extern "C"
