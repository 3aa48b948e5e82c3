// Layer 2 (API): schema/policy.json, the one list of operators left unbound,
// each with its reason.
#pragma once

#include "model/schema.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace codegen::api {

struct Policy {
    std::map<std::string, std::string> excluded_types;     // schema base type -> reason
    std::map<std::string, std::string> excluded_operators; // "name.overload" -> reason
    // Names that lib.torch's hand-written code defines, so the generated API leaves them out.
    std::set<std::string> hand_written_methods, hand_written_functions;
    // Tensor methods PyTorch offers as attributes (`x.mT`, `x.is_leaf`): generated as properties
    // where the method takes nothing and has one overload.
    std::set<std::string> tensor_attributes;
    // Tensor methods of the pin that another LibTorch may lack, computed from what every
    // LibTorch has instead (the body's Simple lines): api::absent_callables uses them.
    std::map<std::string, std::vector<std::string>> absent_method_fallbacks;

    // Entry point names another runtime gives its own meaning (schema/real_runtime_builtins.json):
    // an operator that would take one gets the rt_torch_aten_ prefix instead.
    std::set<std::string> reserved_entry_points;

    static Policy load(const std::string& path);

    // The entry point an operator gets: `generated`, or its rt_torch_aten_ form when reserved.
    std::string entry_point_for(const std::string& generated) const;

    // The reason an operator is excluded, or "" when it is not.
    std::string exclusion_reason(const Operator& op) const;
};

} // namespace codegen::api
