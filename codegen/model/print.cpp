// Model -> canonical schema text, spaced exactly as torchgen writes it, so
// that parse + print is the identity on native_functions.yaml and schema_str.
// Also the schema classification (kind), which is derived from the same
// structure.
#include "model/operator_name.h"
#include "model/schema.h"

namespace codegen {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

// `a`, `a!`, `a -> *`, `a! -> a|b`
std::string alias_str(const Alias& a) {
    std::string out = join(a.before_set, "|");
    if (a.is_write) out += '!';
    if (a.has_arrow || !a.after_set.empty()) out += " -> " + join(a.after_set, "|");
    return out;
}

std::string argument_str(const Argument& a) {
    std::string out = a.type.str() + " " + a.name;
    if (a.default_value) out += "=" + *a.default_value;
    return out;
}

std::string return_str(const Return& r) {
    std::string out = r.type.str();
    if (r.name) out += " " + *r.name;
    return out;
}

} // namespace

std::string Type::str() const {
    std::string out = base;
    if (alias) out += "(" + alias_str(*alias) + ")";
    if (is_list) {
        if (elem_optional) out += '?';
        out += '[';
        if (list_size) out += std::to_string(*list_size);
        out += ']';
    }
    if (optional) out += '?';
    return out;
}

std::string FunctionSchema::qualified_name() const { return overload_name.empty() ? name : name + "." + overload_name; }

std::string FunctionSchema::str() const {
    std::string out = qualified_name() + "(";
    bool first = true;
    bool star_written = false;
    for (const Argument& a : arguments) {
        if (!first) out += ", ";
        first = false;
        if (a.kwarg_only && !star_written) {
            out += "*, ";
            star_written = true;
        }
        out += argument_str(a);
    }
    out += ") -> ";
    // torchgen omits the parentheses around a single return.
    const bool parens = returns.size() != 1 || returns_tuple_syntax;
    if (parens) out += '(';
    for (size_t i = 0; i < returns.size(); ++i) {
        if (i) out += ", ";
        out += return_str(returns[i]);
    }
    if (parens) out += ')';
    return out;
}

// torchgen's SchemaKind: an in-place name wins, then out= arguments, then a
// written positional argument other than self ("mutable").
SchemaKind FunctionSchema::kind() const {
    const Argument* self = nullptr;
    for (const Argument& a : arguments)
        if (!a.kwarg_only && a.name == "self") {
            self = &a;
            break;
        }
    if (is_inplace_name(name) && self && self->type.is_written()) return SchemaKind::inplace;
    for (const Argument& a : arguments)
        if (a.is_out) return SchemaKind::out;
    // Positional arguments before self never write (torchgen forbids it), so
    // "after self" is "any positional but self".
    for (const Argument& a : arguments)
        if (!a.kwarg_only && &a != self && a.type.is_written()) return SchemaKind::mutable_;
    return SchemaKind::functional;
}

} // namespace codegen
