// Binds two IRs one operator at a time and lists the extern fn declarations that change.
#include "diff/declaration_diff.h"

#include "api/operator_binding.h"
#include "emit/emitters.h"

#include <map>
#include <set>

namespace codegen::diff {

namespace {

struct Declared {
    std::string op;
    std::string text;
};

// bind_all's walk, one operator at a time: bind_all throws on the first
// unbound operator, where a diff wants to go on and say which they are.
std::map<std::string, Declared> declarations(const OperatorSet& ir, const api::Policy& policy, const std::string& side,
                                             std::vector<NoBinding>& no_binding) {
    std::map<std::string, Declared> out;
    for (const Operator& op : ir.operators) {
        const std::string name = op.schema.qualified_name();
        if (std::string reason = policy.exclusion_reason(op); !reason.empty()) {
            no_binding.push_back({side, name, "excluded by policy: " + reason});
            continue;
        }
        std::string why;
        const auto binding = api::bind_operator(op, policy, &why);
        if (!binding) {
            no_binding.push_back({side, name, "no binding: " + why});
            continue;
        }
        out[binding->entry_point] = {name, emit::simple_declaration(*binding)};
    }
    return out;
}

} // namespace

DeclarationDiff diff_declarations(const OperatorSet& old_ir, const OperatorSet& new_ir, const api::Policy& policy) {
    DeclarationDiff d;
    const auto olds = declarations(old_ir, policy, "old", d.no_binding);
    const auto news = declarations(new_ir, policy, "new", d.no_binding);
    std::set<std::string> entry_points;
    for (const auto& [name, decl] : olds) entry_points.insert(name);
    for (const auto& [name, decl] : news) entry_points.insert(name);
    for (const std::string& name : entry_points) {
        const auto o = olds.find(name), n = news.find(name);
        if (n == news.end())
            d.changes.push_back({"removed", name, o->second.op, o->second.text, ""});
        else if (o == olds.end())
            d.changes.push_back({"added", name, n->second.op, "", n->second.text});
        else if (o->second.text != n->second.text)
            d.changes.push_back({"changed", name, n->second.op, o->second.text, n->second.text});
    }
    return d;
}

} // namespace codegen::diff
