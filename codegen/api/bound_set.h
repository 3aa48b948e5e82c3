// Layer 2 (API): every operator of an IR, bound or excluded by the policy.
#pragma once

#include "api/operator_binding.h"
#include "api/policy.h"

#include <string>
#include <vector>

namespace codegen::api {

struct Excluded {
    const Operator* op;
    std::string reason;
};

struct BoundSet {
    const OperatorSet* ir = nullptr;
    std::vector<OperatorBinding> bound;             // sorted by entry point name
    std::vector<Excluded> excluded;                 // sorted by qualified name
    std::vector<std::string> unused_policy_entries; // policy operators absent from this IR
};

// Throws std::runtime_error listing every operator that has no binding and
// no policy entry: an unbound operator is never dropped silently.
BoundSet bind_all(const OperatorSet& ir, const Policy& policy);

} // namespace codegen::api
