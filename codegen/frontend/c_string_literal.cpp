// Decodes C/C++ string literal tokens (the at::_ops schema_str members) as the compiler would.
#include "frontend/c_string_literal.h"

#include <stdexcept>

namespace codegen {

namespace {

bool is_octal(char c) { return c >= '0' && c <= '7'; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

[[noreturn]] void fail(std::string_view token, const std::string& problem) {
    throw std::invalid_argument("string literal " + std::string(token) + ": " + problem);
}

} // namespace

std::string c_string_literal_value(std::string_view token) {
    if (token.size() < 2 || token.front() != '"' || token.back() != '"')
        fail(token, "expected an unprefixed \"...\" literal");
    const std::string_view body = token.substr(1, token.size() - 2);
    std::string out;
    out.reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i == body.size()) fail(token, "ends inside an escape");
        const char e = body[i];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\\':
        case '"':
        case '\'':
        case '?': out += e; break;
        case 'x': {
            int value = 0, digits = 0;
            while (i + 1 < body.size() && hex_value(body[i + 1]) >= 0)
                value = value * 16 + hex_value(body[++i]), ++digits;
            if (digits == 0 || value > 0xff) fail(token, "bad \\x escape");
            out += static_cast<char>(value);
            break;
        }
        default:
            if (!is_octal(e)) fail(token, std::string("unknown escape \\") + e);
            int value = e - '0';
            for (int k = 0; k < 2 && i + 1 < body.size() && is_octal(body[i + 1]); ++k)
                value = value * 8 + (body[++i] - '0');
            if (value > 0xff) fail(token, "octal escape out of range");
            out += static_cast<char>(value);
        }
    }
    return out;
}

} // namespace codegen
