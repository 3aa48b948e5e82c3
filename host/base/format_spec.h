// format_spec.h — format specs in interpolation: "{loss:.4f}", "{n:>5}".
//
// Simple's interpolation takes Python's format-spec mini-language (the real
// Simple has no format specs of its own to follow), this subset of it:
//
//     [[fill]align][sign][#][0][width][grouping][.precision][type]
//     align: < > ^ =     sign: + - space     grouping: , _
//     type:  i64: d b o x X (and the float types)   f64: f F e E g G %   text: s
//
// with Python's results, Python's defaults (numbers right-aligned, text
// left-aligned; no type: `d` for i64, `str(x)` for f64 or, with a precision,
// `g` keeping a ".0") and Python's error wording. Which kind of value takes
// which spec is decided by the interpreter (format.cpp); this file parses a
// spec and formats the three built-in kinds.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spl {

struct FormatSpec {
    std::string text;       // as written, for messages
    std::string fill = " "; // one code point (UTF-8)
    char align = 0;         // '<' '>' '^' '=' or 0 (the kind's default)
    char sign = 0;          // '+' '-' ' ' or 0
    bool alternate = false; // '#': 0x / 0o / 0b prefixes; keep the point and zeros of `g`
    bool zero = false;      // a '0' before the width with no alignment: numbers pad after the sign
    int width = 0;
    char grouping = 0;  // ',' or '_' or 0
    int precision = -1; // -1: not given
    char type = 0;      // 0: not given

    // No alignment, sign, grouping, '#' or numeric type: what any value's
    // text can take (padding, truncation).
    bool text_only() const;
};

// A spec that cannot be applied to a value (wrong type code for the kind,
// precision on an integer, ...): the caller turns it into a runtime error.
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses a spec (the text after the colon). Throws FormatError naming what
// is wrong ("Invalid format specifier ...").
FormatSpec parse_format_spec(std::string_view text);

// Python's format(v, spec) for an int, a float and a str, with Simple's type
// names (i64, f64, text; `type_name` for another value shown as its text) in errors.
std::string format_integer(int64_t v, const FormatSpec& spec);
std::string format_floating(double v, const FormatSpec& spec);
std::string format_text(std::string_view s, const FormatSpec& spec, std::string_view type_name = "text");

} // namespace spl
