// Compares the YAML and header front-ends' IRs field by field.
#include "frontend_comparison.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace frontend_comparison {

namespace {

std::map<std::string, const codegen::Operator*> by_name(const codegen::OperatorSet& set) {
    std::map<std::string, const codegen::Operator*> out;
    for (const auto& op : set.operators) out[op.schema.qualified_name()] = &op;
    return out;
}

template <typename Pred>
bool any_operator(const codegen::OperatorSet& yaml, const codegen::OperatorSet& headers, Pred differs) {
    const auto h = by_name(headers);
    for (const auto& op : yaml.operators)
        if (auto it = h.find(op.schema.qualified_name()); it != h.end() && differs(op, *it->second)) return true;
    return false;
}

} // namespace

Comparison compare(const codegen::OperatorSet& yaml, const codegen::OperatorSet& headers) {
    const auto y = by_name(yaml), h = by_name(headers);
    Comparison c;
    for (const auto& [name, op] : y) {
        const auto it = h.find(name);
        if (it == h.end()) {
            c.differences.push_back({name, "presence", true, false});
            continue;
        }
        const bool same_schema = op->schema.str() == it->second->schema.str();
        const bool same_variants = op->variants == it->second->variants;
        if (!same_schema) c.differences.push_back({name, "schema", op->schema.str(), it->second->schema.str()});
        if (!same_variants) c.differences.push_back({name, "variants", op->variants, it->second->variants});
        c.agreeing += same_schema && same_variants;
    }
    for (const auto& [name, op] : h)
        if (!y.count(name)) c.differences.push_back({name, "presence", false, true});
    c.total = y.size();
    for (const auto& [name, op] : h) c.total += !y.count(name);
    std::sort(c.differences.begin(), c.differences.end(), [](const Difference& a, const Difference& b) {
        return std::tie(a.op, a.field) < std::tie(b.op, b.field);
    });
    return c;
}

const std::vector<std::string>& fields_not_compared() {
    static const std::vector<std::string> fields = {"tags", "autogen", "origin", "source"};
    return fields;
}

bool field_differs(const std::string& field, const codegen::OperatorSet& yaml, const codegen::OperatorSet& headers) {
    using codegen::Operator;
    if (field == "tags")
        return any_operator(yaml, headers, [](const Operator& a, const Operator& b) { return a.tags != b.tags; });
    if (field == "autogen")
        return any_operator(yaml, headers, [](const Operator& a, const Operator& b) { return a.autogen != b.autogen; });
    if (field == "origin")
        return any_operator(yaml, headers, [](const Operator& a, const Operator& b) { return a.origin != b.origin; });
    if (field == "source") return yaml.source != headers.source;
    throw std::invalid_argument("field_differs: '" + field +
                                "' is compared operator by operator, not listed as a whole");
}

} // namespace frontend_comparison
