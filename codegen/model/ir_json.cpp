// The JSON IR: one object per operator, keys in the order of
// docs/ir-and-layout.md. The schema text is the source of truth; the
// structured fields are there so that emitters need no parser of their own.
#include "model/ir_json.h"

#include <stdexcept>

#include "model/parse.h"

namespace codegen {

using ordered_json = nlohmann::ordered_json;

const char* kind_name(SchemaKind kind) {
    switch (kind) {
    case SchemaKind::functional: return "functional";
    case SchemaKind::inplace: return "inplace";
    case SchemaKind::out: return "out";
    case SchemaKind::mutable_: return "mutable";
    }
    return "functional";
}

namespace {

ordered_json optional_string(const std::optional<std::string>& s) {
    return s ? ordered_json(*s) : ordered_json(nullptr);
}

ordered_json arguments_json(const FunctionSchema& s) {
    ordered_json out = ordered_json::array();
    for (const Argument& a : s.arguments) {
        ordered_json j;
        j["name"] = a.name;
        j["type"] = a.type.str();
        j["kwarg_only"] = a.kwarg_only;
        j["out"] = a.is_out;
        j["default"] = optional_string(a.default_value);
        out.push_back(std::move(j));
    }
    return out;
}

ordered_json returns_json(const FunctionSchema& s) {
    ordered_json out = ordered_json::array();
    for (const Return& r : s.returns) {
        ordered_json j;
        j["name"] = optional_string(r.name);
        j["type"] = r.type.str();
        out.push_back(std::move(j));
    }
    return out;
}

ordered_json operator_json(const Operator& op) {
    ordered_json j;
    j["name"] = op.schema.name;
    j["overload"] = op.schema.overload_name;
    j["schema"] = op.schema.str();
    j["kind"] = kind_name(op.schema.kind());
    j["variants"] = op.variants;
    j["tags"] = op.tags;
    j["autogen"] = op.autogen;
    j["origin"] = op.origin;
    j["arguments"] = arguments_json(op.schema);
    j["returns"] = returns_json(op.schema);
    return j;
}

std::vector<std::string> string_list(const ordered_json& j, const char* key, const std::string& where) {
    const auto& v = j.at(key);
    if (!v.is_array()) throw std::runtime_error(where + ": '" + key + "' must be an array of strings");
    std::vector<std::string> out;
    for (const auto& e : v) out.push_back(e.get<std::string>());
    return out;
}

// The redundant fields must agree with the schema text; a mismatch means
// the IR was edited by hand or written by a different model.
void check_field(const ordered_json& written, const ordered_json& derived, const char* key, const std::string& where) {
    // Compared as unordered objects: a reader may have reordered keys.
    if (nlohmann::json(written) != nlohmann::json(derived))
        throw std::runtime_error(where + ": field '" + key + "' is " + written.dump() + " but the schema says " +
                                 derived.dump());
}

Operator operator_from_json(const ordered_json& j) {
    Operator op;
    op.origin = j.at("origin").get<std::string>();
    const std::string where = op.origin + " (IR operator " + j.at("name").get<std::string>() + ")";
    op.schema = parse_schema(j.at("schema").get<std::string>(), op.origin);
    op.variants = string_list(j, "variants", where);
    op.tags = string_list(j, "tags", where);
    op.autogen = j.at("autogen").get<bool>();

    const ordered_json derived = operator_json(op);
    for (const char* key : {"name", "overload", "schema", "kind", "arguments", "returns"})
        check_field(j.at(key), derived.at(key), key, where);
    return op;
}

} // namespace

ordered_json to_json(const OperatorSet& set) {
    ordered_json ir;
    ir["ir_version"] = ir_version;
    ir["libtorch_version"] = set.libtorch_version;
    ir["source"] = set.source;
    ordered_json ops = ordered_json::array();
    for (const Operator& op : set.operators) ops.push_back(operator_json(op));
    ir["operators"] = std::move(ops);
    return ir;
}

OperatorSet from_json(const ordered_json& ir) {
    if (!ir.is_object() || ir.value("ir_version", -1) != ir_version)
        throw std::runtime_error("IR: expected an object with \"ir_version\": " + std::to_string(ir_version));
    OperatorSet set;
    set.libtorch_version = ir.at("libtorch_version").get<std::string>();
    set.source = ir.at("source").get<std::string>();
    for (const auto& j : ir.at("operators")) set.operators.push_back(operator_from_json(j));
    return set;
}

OperatorSet from_json(const nlohmann::json& ir) { return from_json(ordered_json(ir)); }

} // namespace codegen
