// Compares the operators of two IRs schema by schema, argument by argument.
#include "diff/operator_diff.h"

#include <algorithm>
#include <map>
#include <set>

namespace codegen::diff {

std::string argument_text(const Argument& a) {
    std::string s = (a.kwarg_only ? "*, " : "") + a.type.str() + " " + a.name;
    if (a.default_value) s += "=" + *a.default_value;
    return s;
}

namespace {

std::string returns_text(const FunctionSchema& s) {
    auto one = [](const Return& r) { return r.type.str() + (r.name ? " " + *r.name : ""); };
    if (s.returns.size() == 1 && !s.returns_tuple_syntax) return one(s.returns[0]);
    std::string out = "(";
    for (size_t i = 0; i < s.returns.size(); ++i) out += (i ? ", " : "") + one(s.returns[i]);
    return out + ")";
}

std::string default_text(const Argument& a) { return a.default_value ? *a.default_value : "(none)"; }

const Argument* find_argument(const FunctionSchema& s, const std::string& name, size_t* index) {
    for (size_t i = 0; i < s.arguments.size(); ++i)
        if (s.arguments[i].name == name) {
            *index = i;
            return &s.arguments[i];
        }
    return nullptr;
}

// The names of `a` that keep their relative order in `b`: a longest common
// subsequence. The others are the arguments that moved (the fewest that
// explain the new order; shifts due to insertions and removals are not moves).
std::set<std::string> kept_in_order(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::vector<size_t>> lcs(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
    for (size_t i = a.size(); i-- > 0;)
        for (size_t j = b.size(); j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::set<std::string> kept;
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] == b[j])
            kept.insert(a[i]), ++i, ++j;
        else if (lcs[i + 1][j] >= lcs[i][j + 1])
            ++i;
        else
            ++j;
    }
    return kept;
}

// The arguments present on both sides, with what changed in each.
void compare_common(const FunctionSchema& o, const FunctionSchema& n, std::vector<ArgumentChange>& out) {
    std::vector<std::string> common_old, common_new; // common names in each side's order
    size_t ignored = 0;
    for (const Argument& a : o.arguments)
        if (find_argument(n, a.name, &ignored)) common_old.push_back(a.name);
    for (const Argument& a : n.arguments)
        if (find_argument(o, a.name, &ignored)) common_new.push_back(a.name);
    const std::set<std::string> in_order = kept_in_order(common_old, common_new);

    for (const std::string& name : common_new) {
        size_t oi = 0, ni = 0;
        const Argument& a = *find_argument(o, name, &oi);
        const Argument& b = *find_argument(n, name, &ni);
        if (a.type.str() != b.type.str()) out.push_back({"type", name, a.type.str(), b.type.str()});
        if (a.default_value != b.default_value) out.push_back({"default", name, default_text(a), default_text(b)});
        if (a.kwarg_only != b.kwarg_only)
            out.push_back({"kwarg_only", name, a.kwarg_only ? "true" : "false", b.kwarg_only ? "true" : "false"});
        if (!in_order.count(name))
            out.push_back({"moved", name, std::to_string(oi + 1), std::to_string(ni + 1)}); // 1-based positions
    }
}

std::vector<ArgumentChange> compare_arguments(const FunctionSchema& o, const FunctionSchema& n) {
    std::vector<ArgumentChange> out;
    compare_common(o, n, out);
    size_t ignored = 0;
    std::vector<size_t> gone, fresh; // indices of arguments only in old / only in new
    for (size_t i = 0; i < o.arguments.size(); ++i)
        if (!find_argument(n, o.arguments[i].name, &ignored)) gone.push_back(i);
    for (size_t i = 0; i < n.arguments.size(); ++i)
        if (!find_argument(o, n.arguments[i].name, &ignored)) fresh.push_back(i);
    for (size_t g : gone) {
        const Argument& a = o.arguments[g];
        const auto same_slot = std::find_if(fresh.begin(), fresh.end(), [&](size_t f) {
            return f == g && n.arguments[f].type.str() == a.type.str() && n.arguments[f].kwarg_only == a.kwarg_only;
        });
        if (same_slot != fresh.end()) {
            out.push_back({"renamed", n.arguments[*same_slot].name, a.name, n.arguments[*same_slot].name});
            fresh.erase(same_slot);
        } else {
            out.push_back({"removed", a.name, argument_text(a), ""});
        }
    }
    for (size_t f : fresh) out.push_back({"added", n.arguments[f].name, "", argument_text(n.arguments[f])});
    return out;
}

std::map<std::string, const Operator*> by_name(const OperatorSet& ir) {
    std::map<std::string, const Operator*> out;
    for (const Operator& op : ir.operators) out[op.schema.qualified_name()] = &op;
    return out;
}

} // namespace

OperatorDiff diff_operators(const OperatorSet& old_ir, const OperatorSet& new_ir) {
    const auto olds = by_name(old_ir), news = by_name(new_ir);
    OperatorDiff d;
    for (const auto& [name, op] : olds)
        if (!news.count(name)) d.removed.push_back(name);
    for (const auto& [name, op] : news) {
        const auto it = olds.find(name);
        if (it == olds.end()) {
            d.added.push_back(name);
            continue;
        }
        const FunctionSchema& o = it->second->schema;
        const FunctionSchema& n = op->schema;
        if (o.str() == n.str()) continue;
        OperatorChange c{name, o.str(), n.str(), compare_arguments(o, n), false, returns_text(o), returns_text(n)};
        c.returns_changed = c.old_returns != c.new_returns;
        d.changed.push_back(std::move(c));
    }
    return d;
}

} // namespace codegen::diff
