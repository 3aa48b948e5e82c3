// Binds every operator of an IR through the policy and the type table (layer 2).
#include "api/bound_set.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace codegen::api {

BoundSet bind_all(const OperatorSet& ir, const Policy& policy) {
    BoundSet set;
    set.ir = &ir;
    std::string unbound;
    std::set<std::string> seen_entry_points, present;
    for (const Operator& op : ir.operators) {
        present.insert(op.schema.qualified_name());
        if (std::string reason = policy.exclusion_reason(op); !reason.empty()) {
            set.excluded.push_back({&op, reason});
            continue;
        }
        std::string why;
        auto binding = bind_operator(op, policy, &why);
        if (!binding) {
            unbound += "\n  " + op.schema.qualified_name() + " (" + op.origin + "): " + why;
            continue;
        }
        if (!seen_entry_points.insert(binding->entry_point).second)
            throw std::runtime_error("two operators map to the entry point " + binding->entry_point);
        set.bound.push_back(std::move(*binding));
    }
    if (!unbound.empty()) throw std::runtime_error("operators without a binding and without a policy entry:" + unbound);
    std::sort(set.bound.begin(), set.bound.end(),
              [](const auto& a, const auto& b) { return a.entry_point < b.entry_point; });
    for (const auto& [name, reason] : policy.excluded_operators)
        if (!present.count(name)) set.unused_policy_entries.push_back(name);
    return set;
}

} // namespace codegen::api
