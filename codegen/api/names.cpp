#include "api/names.h"

#include <set>

namespace codegen::api {

std::string ops_struct_name(const FunctionSchema& schema) {
    return schema.overload_name.empty() ? schema.name : schema.name + "_" + schema.overload_name;
}

std::string entry_point_name(const FunctionSchema& schema) { return "rt_torch_" + ops_struct_name(schema); }

std::string c_param_name(const std::string& name) {
    static const std::set<std::string> reserved = {
        "auto", "bool", "case", "char", "class", "const", "default", "delete", "double", "float", "for",
        "if", "int", "long", "new", "operator", "private", "public", "register", "return", "short",
        "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "try", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "while", "in", "out_"};
    // `a`, `n`, `r` and `in` name locals of the emitted thunks.
    static const std::set<std::string> locals = {"a", "n", "r", "in", "result"};
    return (reserved.count(name) || locals.count(name)) ? name + "_" : name;
}

std::string simple_param_name(const std::string& name) {
    static const std::set<std::string> keywords = {
        "self", "me", "fn", "val", "var", "if", "elif", "else", "while", "for", "in", "return", "break",
        "continue", "match", "case", "class", "struct", "enum", "impl", "trait", "use", "export", "extern",
        "static", "and", "or", "not", "true", "false", "nil", "pass", "as", "is", "type", "from", "import"};
    return keywords.count(name) ? name + "_" : name;
}

} // namespace codegen::api

namespace codegen::api {

std::string ops_header(const FunctionSchema& schema) {
    static const std::set<std::string> augmented = {"add", "sub", "mul", "div", "mod", "pow",
                                                    "lshift", "rshift", "and", "xor", "or", "truediv",
                                                    "floordiv", "matmul"};
    std::string base = schema.name;
    const bool dunder = base.size() > 4 && base.rfind("__", 0) == 0 && base.compare(base.size() - 2, 2, "__") == 0;
    if (dunder) {
        base = base.substr(2, base.size() - 4);
        if (base.size() > 1 && base[0] == 'i' && augmented.count(base.substr(1))) base = base.substr(1);
    } else {
        if (!base.empty() && base.back() == '_') base.pop_back();
        const std::string functional = "_functional";
        if (base.size() > functional.size() &&
            base.compare(base.size() - functional.size(), functional.size(), functional) == 0)
            base.resize(base.size() - functional.size());
    }
    return "ATen/ops/" + base + "_ops.h";
}

} // namespace codegen::api
