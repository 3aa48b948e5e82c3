// The calling thread's error state, the translation of an exception into its message, and the
// boxed form of a failure (no LibTorch): shared by libspl_torch and the plugins that do not link
// LibTorch. Each plugin words its library's exceptions itself (library_exception_text).
#include "abi/error_guard.h"

namespace spl {

std::string current_exception_text(const char* function) noexcept {
    try {
        throw;
    } catch (const SplError& e) {
        return function ? std::string(function) + ": " + e.what() : e.what();
    } catch (const std::exception& e) {
        return library_exception_text(e);
    } catch (...) {
        return "unknown C++ exception";
    }
}

void record_current_exception(const char* function) noexcept {
    t_error_pending = true;
    thread_error_message() = current_exception_text(function);
}

std::string& thread_error_message() noexcept {
    thread_local std::string message;
    return message;
}

const char* tag_name(int32_t tag) noexcept {
    switch (tag) {
    case SPL_NIL: return "nil";
    case SPL_BOOL: return "bool";
    case SPL_I64: return "i64";
    case SPL_F64: return "f64";
    case SPL_TEXT: return "text";
    case SPL_ARRAY: return "an array";
    case SPL_CALLABLE: return "a function";
    default: return "an invalid value";
    }
}

SplStatus fail_boxed(SplValue* result) noexcept {
    const std::string& message = thread_error_message();
    result->tag = SPL_ERROR;
    result->as.text = SplText{message.c_str(), static_cast<int64_t>(message.size())};
    return SPL_STATUS_ERROR;
}

} // namespace spl
