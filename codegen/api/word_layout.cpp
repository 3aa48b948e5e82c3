// The word convention's layout of Simple types (layer 2): read from the plugin's table of
// Simple types (runtime_plugin/simple_types.h), which the word adapters read too.
#include "api/word_layout.h"

#include "simple_types.h"

#include <stdexcept>

namespace codegen::api {

namespace simple_types = spl::simple_types;

char word_param_code(const std::string& t) {
    const simple_types::Row* row = simple_types::find(t);
    if (!row) throw std::runtime_error("no word layout for the Simple type '" + t + "'");
    return row->word_code;
}

int word_count(char code) { return code == simple_types::kAny.word_code ? simple_types::kAny.words : 1; }

char word_result_code(const std::string& t) {
    if (t.empty()) return '-';
    const simple_types::Row* row = simple_types::find(t);
    return row && row->word_result ? row->word_code : simple_types::kAny.word_code;
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
