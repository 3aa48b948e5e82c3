// Format specs in interpolation ("{loss:.4f}"): parsing a spec and formatting by Python's rules.
#include "base/format_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "base/value.h"

namespace spl {

namespace {

// Widths and precisions past this are refused: a typo like `{x:99999999}`
// would otherwise ask for gigabytes of padding.
constexpr int kMaxSize = 100000;

bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_int_type(char t) { return t == 'd' || t == 'b' || t == 'o' || t == 'x' || t == 'X'; }
bool is_float_type(char t) { return t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%'; }

size_t utf8_length(std::string_view s) {
    size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

// Bytes of the code point starting at s[0].
size_t utf8_width(std::string_view s) {
    if (s.empty()) return 0;
    unsigned char c = static_cast<unsigned char>(s[0]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : 4;
    return std::min(n, s.size());
}

std::string quoted(char type) { return std::string("'") + type + "'"; }

int parse_count(std::string_view t, size_t& i, const char* what) {
    long long n = 0;
    while (i < t.size() && is_digit(t[i])) {
        n = n * 10 + (t[i++] - '0');
        if (n > kMaxSize)
            throw FormatError(std::string("format ") + what + " too large in '" + std::string(t) + "' (at most " +
                              std::to_string(kMaxSize) + ")");
    }
    return static_cast<int>(n);
}

std::string repeat(const std::string& fill, size_t n) {
    std::string out;
    out.reserve(fill.size() * n);
    for (size_t i = 0; i < n; ++i) out += fill;
    return out;
}

// `lead` (sign, 0x) and `body` padded to the spec's width; '=' pads between them.
std::string pad(const std::string& lead, const std::string& body, const FormatSpec& s, char align) {
    size_t len = utf8_length(lead) + utf8_length(body);
    if (static_cast<size_t>(s.width) <= len) return lead + body;
    size_t n = static_cast<size_t>(s.width) - len;
    switch (align) {
    case '<': return lead + body + repeat(s.fill, n);
    case '^': return repeat(s.fill, n / 2) + lead + body + repeat(s.fill, n - n / 2);
    case '=': return lead + repeat(s.fill, n) + body;
    default: return repeat(s.fill, n) + lead + body;
    }
}

// Digits with a separator every `every` of them, from the right. With
// zero-padding (fill '0', align '='), the zeros are digits too and are
// grouped as well, until the digits reach `min_width`, as Python does:
// format(1234, "010,") == "00,001,234".
std::string group(const std::string& digits, char sep, int every, int min_width) {
    std::string out; // reversed
    int in_group = 0;
    auto push = [&](char c) {
        if (in_group == every) {
            out += sep;
            in_group = 0;
        }
        out += c;
        ++in_group;
    };
    for (size_t i = digits.size(); i-- > 0;) push(digits[i]);
    while (static_cast<int>(out.size()) < min_width) push('0');
    std::reverse(out.begin(), out.end());
    return out;
}

// A number's text: `lead` (sign and prefix), its integer digits and the rest
// (fraction, exponent, '%'), grouped and padded.
std::string finish_number(const std::string& lead, std::string digits, const std::string& rest, const FormatSpec& s,
                          int every) {
    char align = s.align ? s.align : s.zero ? '=' : '>';
    if (s.grouping) {
        int min_width = 0;
        if (align == '=' && s.fill == "0") min_width = s.width - static_cast<int>(lead.size() + rest.size());
        digits = group(digits, s.grouping, every, min_width);
    }
    return pad(lead, digits + rest, s, align);
}

std::string printf_double(const char* format, int precision, double v) {
    int n = std::snprintf(nullptr, 0, format, precision, v);
    std::vector<char> buf(static_cast<size_t>(n) + 1);
    std::snprintf(buf.data(), buf.size(), format, precision, v);
    return std::string(buf.data(), static_cast<size_t>(n));
}

// `g` without '#': no trailing zeros in the fraction, no bare point.
std::string strip_fraction_zeros(std::string s) {
    size_t e = s.find_first_of("eE");
    std::string exp = e == std::string::npos ? "" : s.substr(e);
    std::string mant = e == std::string::npos ? s : s.substr(0, e);
    if (mant.find('.') != std::string::npos) {
        while (!mant.empty() && mant.back() == '0') mant.pop_back();
        if (!mant.empty() && mant.back() == '.') mant.pop_back();
    }
    return mant + exp;
}

// Python's float format with no type but a precision: `g`, except that
// scientific notation starts at exp >= p - 1 and a fixed result keeps a
// digit after the point (format(1.0, ".3") == "1.0", format(100.0, ".3") == "1e+02").
std::string general_with_point(double a, int p, bool alternate) {
    if (p == 0) p = 1;
    std::string sci = printf_double("%.*e", p - 1, a);
    int exp = std::atoi(sci.c_str() + sci.find('e') + 1);
    std::string out;
    if (exp >= -4 && exp < p - 1) {
        out = printf_double(alternate ? "%#.*f" : "%.*f", p - 1 - exp, a);
        if (!alternate) out = strip_fraction_zeros(out);
        if (out.find('.') == std::string::npos) out += ".0";
    } else {
        out = alternate ? sci : strip_fraction_zeros(sci);
    }
    return out;
}

std::string sign_of(bool negative, const FormatSpec& s) {
    if (negative) return "-";
    if (s.sign == '+') return "+";
    if (s.sign == ' ') return " ";
    return "";
}

} // namespace

bool FormatSpec::text_only() const {
    return !sign && !alternate && align != '=' && !grouping && (type == 0 || type == 's');
}

FormatSpec parse_format_spec(std::string_view t) {
    FormatSpec s;
    s.text = std::string(t);
    size_t i = 0;
    bool fill_given = false;
    size_t first = utf8_width(t);
    if (t.size() > first && is_align(t[first])) {
        s.fill = std::string(t.substr(0, first));
        s.align = t[first];
        fill_given = true;
        i = first + 1;
    } else if (!t.empty() && is_align(t[0])) {
        s.align = t[0];
        i = 1;
    }
    if (i < t.size() && (t[i] == '+' || t[i] == '-' || t[i] == ' ')) s.sign = t[i++];
    if (i < t.size() && t[i] == '#') {
        s.alternate = true;
        ++i;
    }
    if (i < t.size() && t[i] == '0') {
        // Sign-aware zero padding, unless a fill or an alignment says otherwise.
        if (!fill_given) s.fill = "0";
        if (!s.align) s.zero = true;
        ++i;
    }
    s.width = parse_count(t, i, "width");
    if (i < t.size() && (t[i] == ',' || t[i] == '_')) s.grouping = t[i++];
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (i >= t.size() || !is_digit(t[i]))
            throw FormatError("Format specifier missing precision in '" + s.text + "'");
        s.precision = parse_count(t, i, "precision");
    }
    if (i < t.size()) {
        char c = t[i];
        if (is_int_type(c) || is_float_type(c) || c == 's') {
            s.type = c;
            ++i;
        }
    }
    if (i < t.size())
        throw FormatError("Invalid format specifier '" + s.text +
                          "' (the supported form is [[fill]align][sign][#][0][width][,|_][.precision][type], "
                          "type one of d b o x X e E f F g G % s)");
    return s;
}

std::string format_integer(int64_t v, const FormatSpec& s) {
    char t = s.type ? s.type : 'd';
    if (is_float_type(t)) return format_floating(static_cast<double>(v), s);
    if (!is_int_type(t)) throw FormatError("Unknown format code " + quoted(t) + " for object of type 'i64'");
    if (s.precision >= 0) throw FormatError("Precision not allowed in integer format specifier");
    if (s.grouping == ',' && t != 'd') throw FormatError("Cannot specify ',' with " + quoted(t) + ".");
    uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    const unsigned base = t == 'b' ? 2 : t == 'o' ? 8 : t == 'd' ? 10 : 16;
    const char* alphabet = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    std::string digits;
    do {
        digits += alphabet[mag % base];
        mag /= base;
    } while (mag);
    std::reverse(digits.begin(), digits.end());
    std::string lead = sign_of(v < 0, s);
    if (s.alternate && t != 'd') lead += std::string("0") + (t == 'X' ? 'X' : t);
    return finish_number(lead, digits, "", s, t == 'd' ? 3 : 4);
}

std::string format_floating(double v, const FormatSpec& s) {
    const char t = s.type;
    if (t && !is_float_type(t)) throw FormatError("Unknown format code " + quoted(t) + " for object of type 'f64'");
    const bool negative = std::signbit(v) && !std::isnan(v);
    const double a = std::fabs(v);
    const int p = s.precision < 0 ? 6 : s.precision;
    std::string body;
    if (!std::isfinite(a)) {
        body = std::isnan(a) ? "nan" : "inf";
        if (t == 'E' || t == 'F' || t == 'G')
            for (char& c : body) c = static_cast<char>(c - 'a' + 'A');
        if (t == '%') body += '%';
    } else if (t == 'f' || t == 'F' || t == 'e' || t == 'E') {
        std::string format = s.alternate ? "%#.*" : "%.*";
        body = printf_double((format + t).c_str(), p, a);
    } else if (t == 'g' || t == 'G') {
        std::string format = s.alternate ? "%#.*" : "%.*";
        body = printf_double((format + t).c_str(), p == 0 ? 1 : p, a);
    } else if (t == '%') {
        body = printf_double(s.alternate ? "%#.*f" : "%.*f", p, a * 100) + "%";
    } else if (s.precision >= 0) {
        body = general_with_point(a, s.precision, s.alternate);
    } else {
        body = format_float(a); // no type, no precision: as str(x)
    }
    size_t int_end = 0;
    while (int_end < body.size() && is_digit(body[int_end])) ++int_end;
    return finish_number(sign_of(negative, s), body.substr(0, int_end), body.substr(int_end), s, 3);
}

std::string format_text(std::string_view text, const FormatSpec& s, std::string_view type_name) {
    if (s.type && s.type != 's')
        throw FormatError("Unknown format code " + quoted(s.type) + " for object of type '" + std::string(type_name) +
                          "'");
    if (s.sign) throw FormatError("Sign not allowed in string format specifier");
    if (s.alternate) throw FormatError("Alternate form (#) not allowed in string format specifier");
    if (s.align == '=') throw FormatError("'=' alignment not allowed in string format specifier");
    if (s.grouping) throw FormatError(std::string("Cannot specify '") + s.grouping + "' with 's'.");
    std::string body(text);
    if (s.precision >= 0) { // at most that many code points
        size_t cps = 0, i = 0;
        while (i < body.size() && cps < static_cast<size_t>(s.precision)) {
            i += utf8_width(std::string_view(body).substr(i));
            ++cps;
        }
        body.resize(i);
    }
    return pad("", body, s, s.align ? s.align : '<');
}

} // namespace spl
