// ranges.h — ranges as Python's range objects: slicing bounds shared with arrays and text,
// a range's element or sub-range (`r[i]`, `r[a:b:s]`), `step_by`, and how a range prints.
// The arithmetic (size, at, contains) is RangeObj's own (base/value.h).
#pragma once

#include <optional>
#include <string>

#include "eval/interpreter.h"

namespace spl {

// What `[start:stop:step]` selects of a sequence of `len` items: Python's slice.indices(len),
// and how many positions that is (start, start + step, ... `count` of them).
struct SliceBounds {
    int64_t start, step, count;
    int64_t stop; // exclusive, as slice.indices gives it
};

inline SliceBounds slice_bounds(Interpreter& in, const SliceObj& s, int64_t len, SourceLoc loc) {
    auto get = [&](const Value& v, const char* what) -> std::optional<int64_t> {
        if (v.is_nil()) return std::nullopt;
        if (!v.is_int()) runtime_error(loc, std::string("a slice ") + what + " must be i64, found " + in.type_name(v));
        return v.as_int();
    };
    const int64_t step = get(s.step, "step").value_or(1);
    if (step == 0) runtime_error(loc, "a slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + len : *v;
        return std::min(std::max(x, lo), hi);
    };
    const int64_t start =
        step > 0 ? clamp(get(s.start, "start"), 0, 0, len) : clamp(get(s.start, "start"), len - 1, -1, len - 1);
    const int64_t stop =
        step > 0 ? clamp(get(s.stop, "stop"), len, 0, len) : clamp(get(s.stop, "stop"), -1, -1, len - 1);
    int64_t count = 0;
    if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
    if (step < 0 && start > stop) count = (start - stop - 1) / -step + 1;
    return SliceBounds{start, step, count, stop};
}

// `(a..b).step_by(n)`: every n-th integer of the range, from its first (Rust's Iterator::step_by,
// the real Simple's name); stepping a stepped range multiplies the steps.
inline Value range_step_by(Interpreter& in, const RangeObj& r, const Value& n, SourceLoc loc) {
    if (!n.is_int()) runtime_error(loc, "`step_by` takes an i64 step, found " + in.type_name(n));
    if (n.as_int() <= 0) runtime_error(loc, "`step_by` needs a step of at least 1, got " + std::to_string(n.as_int()));
    return Value(new RangeObj(r.start, r.end, r.inclusive, r.step * n.as_int(), r.form));
}

// `r[i]` (negative counts from the end) and `r[a:b:s]`, a range again (Python's: range(0, 10,
// 2)[1:3] is range(2, 6, 2)).
inline Value range_item(Interpreter& in, const RangeObj& r, const Value& key, SourceLoc loc) {
    const int64_t n = r.size();
    if (key.is(ObjType::Slice)) {
        SliceBounds b = slice_bounds(in, *key.as<SliceObj>(), n, loc);
        return Value(new RangeObj(r.at(b.start), r.at(b.stop), false, r.step * b.step, RangeObj::Form::Call));
    }
    if (!key.is_int()) runtime_error(loc, "a range index must be i64, found " + in.type_name(key));
    int64_t i = key.as_int() < 0 ? key.as_int() + n : key.as_int();
    if (i < 0 || i >= n)
        runtime_error(loc, "index " + std::to_string(key.as_int()) + " out of range for a range of length " +
                               std::to_string(n));
    return Value::integer(r.at(i));
}

// How a range prints: as written (`0..10`, `0..=10`, `(0..10).step_by(2)`), or, made by range()
// or stepping down, as Python's repr (`range(0, 10)`, `range(10, 0, -3)`).
inline std::string range_text(const RangeObj& r) {
    if (r.form == RangeObj::Form::Call || r.step < 0) {
        std::string out = "range(" + std::to_string(r.start) + ", " + std::to_string(r.stop());
        if (r.step != 1) out += ", " + std::to_string(r.step);
        return out + ")";
    }
    std::string dots = std::to_string(r.start) + (r.inclusive ? "..=" : "..") + std::to_string(r.end);
    return r.step == 1 ? dots : "(" + dots + ").step_by(" + std::to_string(r.step) + ")";
}

} // namespace spl
