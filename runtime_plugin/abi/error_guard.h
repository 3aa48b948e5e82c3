// Error translation at the plugin boundary.
//
// Every exported function runs its body through `guarded` (typed ABI) or
// `boxed_call` (boxed ABI): the one place where C++ exceptions are caught and
// turned into a per-thread error message. Nothing unwinds into the host.
#pragma once

#include "spl_plugin.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace spl {

// An error raised by the binding itself (bad handle, bad type, bad name).
class SplError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The calling thread's error state: whether its most recent call failed
// (a plain thread_local bool, so the hot path needs no TLS initialisation
// check), and the last failure's message, kept until the next failure.
inline thread_local bool t_error_pending = false;
std::string& thread_error_message() noexcept;

// The one place an exception becomes a message: the text of the exception currently being
// handled. The binding's own errors are prefixed with `function` (when given); the library's
// (LibTorch's, Python's) are passed on as library_exception_text words them. Call only inside
// a catch.
std::string current_exception_text(const char* function = nullptr) noexcept;

// The message of an exception the plugin's library raised, or of any other std::exception.
// Each plugin defines it: libspl_torch's knows c10::Error (core/libtorch_errors.cpp),
// libspl_python's passes Python's report on (python/errors.cpp).
std::string library_exception_text(const std::exception& e) noexcept;

// Records the exception currently being handled as the thread's error (current_exception_text).
// Call only inside a catch.
void record_current_exception(const char* function = nullptr) noexcept;

// Runs `body` for the typed entry point `function`: clears the pending flag,
// returns the body's value, or R{} with the error recorded.
template <class R, class F>
inline R guarded(const char* function, F&& body) noexcept {
    t_error_pending = false;
    try {
        return std::forward<F>(body)();
    } catch (...) {
        record_current_exception(function);
        if constexpr (!std::is_void_v<R>) return R{};
    }
}

// The Simple name of a boxed value's tag, for messages ("i64", "text", ...).
const char* tag_name(int32_t tag) noexcept;

// Fills `result` with the current thread's error and returns SPL_STATUS_ERROR.
SplStatus fail_boxed(SplValue* result) noexcept;

// Runs `body(result)` for a boxed thunk; a failure inside it, or a failure
// recorded by a typed function it called, becomes SPL_STATUS_ERROR.
template <class F>
inline SplStatus boxed_call(SplValue* result, F&& body) noexcept {
    t_error_pending = false;
    try {
        std::forward<F>(body)(result);
    } catch (...) {
        record_current_exception();
    }
    return t_error_pending ? fail_boxed(result) : SPL_STATUS_OK;
}

} // namespace spl
