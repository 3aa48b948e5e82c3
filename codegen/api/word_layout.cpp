// The word convention's layout of Simple types (layer 2).
#include "api/word_layout.h"

#include <stdexcept>

namespace codegen::api {

char word_param_code(const std::string& t) {
    if (t == "i64") return 'I';
    if (t == "f64") return 'F';
    if (t == "bool") return 'B';
    if (t == "text") return 'T';
    if (t == "text?") return 't';
    if (!t.empty() && (t[0] == '[' || t[0] == '(')) return 'L';
    if (t == "any" || (!t.empty() && t.back() == '?')) return 'V';
    throw std::runtime_error("no word layout for the Simple type '" + t + "'");
}

int word_count(char code) { return code == 'V' ? 2 : 1; }

char word_result_code(const std::string& t) {
    if (t.empty()) return '-';
    if (t == "i64" || t == "f64" || t == "bool" || t == "text") return word_param_code(t);
    return 'V';
}

int tuple_arity(const std::string& t) {
    if (t.empty() || t[0] != '(') return 0;
    int depth = 0, commas = 0;
    for (char c : t) {
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == ',' && depth == 1) ++commas;
    }
    return commas + 1;
}

} // namespace codegen::api
