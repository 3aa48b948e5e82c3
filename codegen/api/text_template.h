// The table's conversions are templates ("spl::tensor({v}, {n})"); this fills them.
#pragma once

#include <string>

namespace codegen::api {

// Replaces every `token` in `text` with `value`.
inline std::string substitute(std::string text, const std::string& token, const std::string& value) {
    for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
        text.replace(at, token.size(), value);
    return text;
}

// A value -> a double-quoted literal, valid in C++ and in Simple.
inline std::string quoted(const std::string& value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

} // namespace codegen::api
