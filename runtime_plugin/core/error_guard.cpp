#include "core/error_guard.h"

#include <c10/util/Exception.h>

namespace spl {

std::string& thread_error_message() noexcept {
    thread_local std::string message;
    return message;
}

void record_current_exception(const char* function) noexcept {
    t_error_pending = true;
    std::string& message = thread_error_message();
    try {
        throw;
    } catch (const c10::Error& e) {
        // LibTorch's message without the C++ backtrace: that is what a Simple
        // programmer can act on.
        message = e.what_without_backtrace();
    } catch (const SplError& e) {
        message = function ? std::string(function) + ": " + e.what() : e.what();
    } catch (const std::exception& e) {
        message = e.what();
    } catch (...) {
        message = "unknown C++ exception";
    }
}

const char* tag_name(int32_t tag) noexcept {
    switch (tag) {
    case SPL_NIL: return "nil";
    case SPL_BOOL: return "bool";
    case SPL_I64: return "i64";
    case SPL_F64: return "f64";
    case SPL_TEXT: return "text";
    case SPL_ARRAY: return "an array";
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
