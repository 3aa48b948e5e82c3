// Boxed values (SplValue) made by a plugin, and the per-thread arena their arrays and texts
// live in. Plain C++17, no LibTorch: shared by libspl_torch (core/results.h adds ATen's
// conversions) and the plugins that do not link LibTorch (libspl_python).
//
// Arrays and text that cross the boundary live in a per-thread arena that is recycled at the
// start of the next call that returns such a value (see spl_plugin.h: a host copies results
// out at once).
#pragma once

#include "spl_plugin.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

namespace spl {

// --- the per-thread result arena ---------------------------------------------
class ResultArena {
public:
    static ResultArena& current() noexcept;
    void reset() noexcept {
        used_ = 0;
        texts_used_ = 0;
    }
    SplValue* values(size_t n);          // room for n boxed values
    const char* text(std::string value); // a stable copy of `value`
private:
    std::vector<std::vector<SplValue>> blocks_;
    size_t used_ = 0;
    std::deque<std::string> texts_; // a deque: growing it never moves the texts already handed out
    size_t texts_used_ = 0;
};

// --- boxed value constructors --------------------------------------------------
inline SplValue v_nil() {
    SplValue v;
    v.tag = SPL_NIL;
    v.as.i = 0;
    return v;
}
inline SplValue v_i64(int64_t i) {
    SplValue v;
    v.tag = SPL_I64;
    v.as.i = i;
    return v;
}
inline SplValue v_f64(double f) {
    SplValue v;
    v.tag = SPL_F64;
    v.as.f = f;
    return v;
}
inline SplValue v_bool(bool b) {
    SplValue v;
    v.tag = SPL_BOOL;
    v.as.i = 0;
    v.as.b = b;
    return v;
}
SplValue v_text(const char* s); // NULL gives nil
SplValue v_array(const SplValue* items, int64_t len);

// A tuple of results: each element already converted to a boxed value.
SplValue tuple_value(std::initializer_list<SplValue> items);

// --- typed ABI -> boxed ------------------------------------------------------------
inline SplValue boxed(int64_t i) { return v_i64(i); }
inline SplValue boxed(double f) { return v_f64(f); }
inline SplValue boxed(bool b) { return v_bool(b); }
inline SplValue boxed(const char* s) { return v_text(s); }
inline SplValue boxed(SplValue v) { return v; }

} // namespace spl
