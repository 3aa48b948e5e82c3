// int_division_watch.h — the run-time half of the integer-division warning
// (resolve/checks/int_division.h has the why and the static half).
//
// The resolver hands over each division of the program whose result may meet a float. When
// `/` on two i64s truncates (binary() in operators.cpp, the only place i64 `/` runs: the
// inline arithmetic of eval.cpp leaves it out), the site is looked up here; a division whose
// result always meets a float warns at once, one whose consumer's other operand the text did
// not tell is kept pending until that consumer runs, which warns if it met an f64. Each site
// warns once, on stderr. What it costs: a truncating i64 division does a lookup (a hash of a
// pointer; none while nothing is watched), an exact one a compare, the operators that reach
// binary() a compare; the inline fast paths nothing.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "base/value.h"
#include "eval/site_cache.h"
#include "resolve/checks/int_division.h"

namespace spl {

class IntDivisionWatch {
public:
    void watch(const DivisionSite& site);
    // `x / y` at `site` (y != 0, not INT64_MIN / -1): the quotient, truncated toward zero. One call,
    // out of line, so that binary() keeps its shape for the operators that never divide.
    int64_t divide(const OverloadSite* site, int64_t x, int64_t y);
    // Whether the operator at `site` is where a pending truncated result goes.
    bool awaits(const OverloadSite* site) const { return site && pending_.consumer == site; }
    // That operator ran on `a` and `b`: the warning if the truncated i64 met an f64.
    void consume(const Value& a, const Value& b);

private:
    struct Watched {
        const ast::Binary* div = nullptr;
        const OverloadSite* consumer = nullptr; // null: the result meets a float whenever it is an i64
        bool lhs = false;                       // the division is the consumer's left operand
        bool warned = false;
    };
    struct Pending {
        const OverloadSite* division = nullptr;
        const OverloadSite* consumer = nullptr;
        Watched* watched = nullptr;
        int64_t x = 0, y = 0, q = 0;
    };
    void truncated(const OverloadSite* site, int64_t x, int64_t y, int64_t q);
    static void warn(Watched& w, int64_t x, int64_t y, int64_t q);

    std::unordered_map<const OverloadSite*, Watched> sites_; // by the division's operator site
    Pending pending_;
};

} // namespace spl
