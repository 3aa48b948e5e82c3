#include "core/error_guard.h"

#include <c10/util/Exception.h>

namespace spl {

ErrorState& thread_error() noexcept {
    thread_local ErrorState state;
    return state;
}

void record_current_exception() noexcept {
    ErrorState& state = thread_error();
    state.pending = true;
    try {
        throw;
    } catch (const c10::Error& e) {
        // LibTorch's message without the C++ backtrace: that is what a Simple
        // programmer can act on.
        state.message = e.what_without_backtrace();
    } catch (const std::exception& e) {
        state.message = e.what();
    } catch (...) {
        state.message = "unknown C++ exception";
    }
}

SplStatus fail_boxed(SplValue* result) noexcept {
    const std::string& message = thread_error().message;
    result->tag = SPL_ERROR;
    result->as.text = SplText{message.c_str(), static_cast<int64_t>(message.size())};
    return SPL_STATUS_ERROR;
}

} // namespace spl
