// Layer 2 (API): lib.torch's generated Simple API — every function variant as
// a module function and every method variant as a Tensor method, taking and
// returning Tensor objects, with overloads ordered for the host's
// first-match resolution.
#pragma once

#include "api/bound_set.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace codegen::api {

struct ApiParam {
    std::string name;
    std::string type;
    std::optional<std::string> default_value; // a Simple literal
    bool takes_tensors = false;               // Tensor, Tensor?, [Tensor], [Tensor?]
};

// PyTorch's named tuple for an operator whose returns all have names (torch.return_types.max:
// values, indices): a class that is also a sequence of its fields (len, get_item, iter).
struct NamedResult {
    std::string class_name;                                  // "return_types_max"
    std::string python_name;                                 // "torch.return_types.max"
    std::vector<std::pair<std::string, std::string>> fields; // name, Simple type
};

struct ApiCallable {
    std::string name;              // Simple name: "add", "var_"
    std::vector<ApiParam> params;  // without self, for methods
    std::string return_type;       // "" for none
    std::vector<std::string> body; // Simple statements; the last is the value
    const OperatorBinding* binding;
    bool is_property = false;                // a Tensor attribute in PyTorch: `x.mT` (x.mT() calls it too)
    std::optional<NamedResult> named_result; // what it returns, when that is a named tuple
};

struct ApiSurface {
    std::vector<ApiCallable> functions; // grouped by name, overloads in resolution order
    std::vector<ApiCallable> methods;
    std::vector<std::string> skipped; // names left to the hand-written library
};

// The named results the callables of `surfaces` return, once each, by class name.
std::vector<NamedResult> named_results(const std::vector<const ApiSurface*>& surfaces);

// `hand_written` names (schema/policy.json "hand_written") are not generated:
// the hand-written library defines them (e.g. Tensor.to, which must tell a
// device name from a dtype name).
// `tensor_attributes`: method names made properties where the method takes nothing and has no
// other overload.
ApiSurface simple_api(const BoundSet& set, const std::set<std::string>& hand_written_methods,
                      const std::set<std::string>& hand_written_functions,
                      const std::set<std::string>& tensor_attributes = {});

// The functions and methods of `reference` (the API of the LibTorch lib.torch's hand-written
// library is written against) that `here` lacks, compared by name and parameter types, each
// with a body that raises an error naming the operator and both versions: on an older
// LibTorch, a feature that needs a missing operator fails when used, and the rest loads.
// A method with a fallback in `method_fallbacks` (policy.json) computes its value instead.
ApiSurface absent_callables(const ApiSurface& here, const ApiSurface& reference, const std::string& here_version,
                            const std::string& reference_version,
                            const std::map<std::string, std::vector<std::string>>& method_fallbacks);

// The operators bound in `reference` whose entry point `here` lacks (sorted by entry point).
std::vector<const OperatorBinding*> absent_entry_points(const BoundSet& here, const BoundSet& reference);

// The error an absent operator raises (a Simple expression).
std::string absent_operator_error(const OperatorBinding& b, const std::string& here_version,
                                  const std::string& reference_version);

} // namespace codegen::api
