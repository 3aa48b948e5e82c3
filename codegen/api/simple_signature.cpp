// Simple function signatures from bindings and from `extern fn` lines (layer 2).
#include "api/simple_signature.h"

#include <sstream>
#include <stdexcept>

namespace codegen::api {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits at commas outside brackets, parentheses and quotes (`[i64]`, `(a, b)`, `"a,b"`).
std::vector<std::string> split_top_level(const std::string& s) {
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    bool quoted = false;
    for (char c : s) {
        if (c == '"') quoted = !quoted;
        if (!quoted && (c == '(' || c == '[')) ++depth;
        if (!quoted && (c == ')' || c == ']')) --depth;
        if (c == ',' && depth == 0 && !quoted) {
            parts.push_back(trim(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!trim(current).empty()) parts.push_back(trim(current));
    return parts;
}

SimpleSignature parse_line(const std::string& line) {
    const std::string head = "extern fn ";
    const auto open = line.find('(');
    if (open == std::string::npos) throw std::runtime_error("no '(' in: " + line);
    // The parameter list closes at the ')' that balances `open`.
    int depth = 0;
    size_t close = open;
    for (; close < line.size(); ++close) {
        if (line[close] == '(') ++depth;
        if (line[close] == ')' && --depth == 0) break;
    }
    if (close == line.size()) throw std::runtime_error("unbalanced parentheses in: " + line);
    SimpleSignature sig;
    sig.name = trim(line.substr(head.size(), open - head.size()));
    for (const std::string& part : split_top_level(line.substr(open + 1, close - open - 1))) {
        const auto colon = part.find(':');
        if (colon == std::string::npos) throw std::runtime_error("a parameter without a type in: " + line);
        SimpleParam p;
        p.name = trim(part.substr(0, colon));
        std::string type = part.substr(colon + 1);
        if (const auto eq = type.find('='); eq != std::string::npos) {
            p.default_value = trim(type.substr(eq + 1));
            type = type.substr(0, eq);
        }
        p.type = trim(type);
        sig.params.push_back(p);
    }
    const std::string rest = trim(line.substr(close + 1));
    if (rest.rfind("->", 0) == 0) sig.return_type = trim(rest.substr(2));
    return sig;
}

} // namespace

SimpleSignature signature_of(const OperatorBinding& b) {
    SimpleSignature sig{b.entry_point, {}, b.result.simple_type};
    for (const auto& p : b.params)
        sig.params.push_back({p.simple_name, p.type.simple_type, p.default_value ? p.default_value->simple : ""});
    return sig;
}

std::vector<SimpleSignature> parse_extern_declarations(const std::string& source) {
    std::vector<SimpleSignature> out;
    std::istringstream in(source);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("extern fn ", 0) != 0) continue;
        // A long declaration goes on over the next lines until its parentheses close (newlines
        // inside brackets continue a line in Simple).
        int depth = 0;
        for (char c : line) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        std::string next;
        while (depth > 0 && std::getline(in, next)) {
            line += " " + trim(next);
            for (char c : next) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        }
        out.push_back(parse_line(line));
    }
    return out;
}

} // namespace codegen::api
