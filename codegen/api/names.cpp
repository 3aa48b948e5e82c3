// C, C++ and Simple names of operators, entry points, parameters and ATen headers (layer 2).
#include "api/names.h"

#include "model/operator_name.h"

#include <set>

namespace codegen::api {

std::string ops_struct_name(const FunctionSchema& schema) {
    return schema.overload_name.empty() ? schema.name : schema.name + "_" + schema.overload_name;
}

std::string entry_point_name(const FunctionSchema& schema) { return "rt_torch_" + ops_struct_name(schema); }

std::string word_symbol(const std::string& entry_point) { return "spl_w_" + entry_point; }

std::string registry_entry_name(const std::string& entry_point) { return "spl_entry_" + entry_point; }

std::string c_param_name(const std::string& name) {
    static const std::set<std::string> reserved = {
        "auto",     "bool",   "case",     "char",   "class",   "const",    "default",  "delete", "double",   "float",
        "for",      "if",     "int",      "long",   "new",     "operator", "private",  "public", "register", "return",
        "short",    "signed", "sizeof",   "static", "struct",  "switch",   "template", "this",   "throw",    "try",
        "typename", "union",  "unsigned", "using",  "virtual", "void",     "volatile", "while",  "in",       "out_"};
    // `a`, `n`, `r` and `in` name locals of the emitted thunks.
    static const std::set<std::string> locals = {"a", "n", "r", "in", "result"};
    return (reserved.count(name) || locals.count(name)) ? name + "_" : name;
}

std::string simple_param_name(const std::string& name) {
    static const std::set<std::string> keywords = {
        "self",  "me",     "fn",     "val",      "var",    "if",   "elif",  "else",   "while", "for",
        "in",    "return", "break",  "continue", "match",  "case", "class", "struct", "enum",  "impl",
        "trait", "use",    "export", "extern",   "static", "and",  "or",    "not",    "true",  "false",
        "nil",   "pass",   "as",     "is",       "type",   "from", "import"};
    return keywords.count(name) ? name + "_" : name;
}

} // namespace codegen::api

namespace codegen::api {

std::string ops_header(const FunctionSchema& schema) {
    // torchgen names the header after the operator's root: the group base
    // name (no in-place spelling, no `_functional`), dunder underscores off
    // (`__iand__` -> and_ops.h).
    std::string base = group_base_name(schema.name);
    if (is_dunder_name(base)) base = base.substr(2, base.size() - 4);
    return "ATen/ops/" + base + "_ops.h";
}

} // namespace codegen::api
