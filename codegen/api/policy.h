// Layer 2 (API): schema/policy.json, the one list of operators left unbound,
// each with its reason.
#pragma once

#include "model/schema.h"

#include <map>
#include <string>
#include <vector>

namespace codegen::api {

struct Policy {
    std::map<std::string, std::string> excluded_types;     // schema base type -> reason
    std::map<std::string, std::string> excluded_operators; // "name.overload" -> reason

    static Policy load(const std::string& path);

    // The reason an operator is excluded, or "" when it is not.
    std::string exclusion_reason(const Operator& op) const;
};

} // namespace codegen::api
