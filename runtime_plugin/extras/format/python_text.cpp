// Python's number and tuple text, reproduced character for character.
#include "extras/format/python_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace spl::format {

namespace {

// Python writes non-finite floats the same way in every presentation type;
// the finite ones go through C's printf, which rounds exactly like Python's
// dtoa (correctly rounded, ties to even on the exact binary value).
std::string with_printf(const char* spec, double value, int precision) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    const int length = std::snprintf(nullptr, 0, spec, precision, value);
    std::string text(static_cast<size_t>(length) + 1, '\0');
    std::snprintf(text.data(), text.size(), spec, precision, value);
    text.pop_back();
    return text;
}

} // namespace

std::string python_fixed(double value, int precision) { return with_printf("%.*f", value, precision); }

std::string python_scientific(double value, int precision) { return with_printf("%.*e", value, precision); }

std::string python_tuple(c10::IntArrayRef values) {
    std::ostringstream out;
    out << '(';
    for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
    out << (values.size() == 1 ? ",)" : ")");
    return out.str();
}

std::string lstrip(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\n\r\f\v");
    return first == std::string::npos ? std::string() : text.substr(first);
}

} // namespace spl::format

namespace spl::format {

std::string python_float_repr(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    // The shortest round-tripping mantissa, as "d.ddde±xx".
    std::string sci;
    for (int digits = 1; digits <= 17; ++digits) {
        sci = python_scientific(value, digits - 1);
        if (std::strtod(sci.c_str(), nullptr) == value) break;
    }
    const size_t e = sci.find('e');
    const int exponent = std::stoi(sci.substr(e + 1));
    const bool negative = sci[0] == '-';
    std::string digits;
    for (char c : sci.substr(0, e))
        if (c >= '0' && c <= '9') digits += c;
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();

    std::string out = negative ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
        out += digits.substr(0, 1);
        if (digits.size() > 1) out.append(".").append(digits, 1, std::string::npos);
        char exp_text[16];
        std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        return out + exp_text;
    }
    if (exponent < 0) return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    const auto point = static_cast<size_t>(exponent + 1);
    if (digits.size() <= point) return out + digits + std::string(point - digits.size(), '0') + ".0";
    return out + digits.substr(0, point) + "." + digits.substr(point);
}

} // namespace spl::format
