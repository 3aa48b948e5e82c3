// The YAML and header front-ends' IRs for one LibTorch, compared field by
// field, in the shape of schema/frontend_differences.json.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/schema.h"

namespace frontend_comparison {

// One operator on which the front-ends disagree.
struct Difference {
    std::string op;               // "add.Tensor"
    std::string field;            // "presence" | "schema" | "variants"
    nlohmann::json yaml, headers; // the two values (presence: true/false)
};

struct Comparison {
    std::vector<Difference> differences; // sorted by (op, field)
    size_t agreeing = 0;                 // operators in both with the same schema and variants
    size_t total = 0;                    // operators in either
};

// Compares what both front-ends can know: presence, schema text, variants.
Comparison compare(const codegen::OperatorSet& yaml, const codegen::OperatorSet& headers);

// The fields headers cannot tell (tags, autogen, origin, source): whether
// `field` still differs somewhere, so that its entry in
// frontend_differences.json is still needed. Throws for another field.
bool field_differs(const std::string& field, const codegen::OperatorSet& yaml, const codegen::OperatorSet& headers);

// The fields field_differs knows, in the order the file lists them.
const std::vector<std::string>& fields_not_compared();

} // namespace frontend_comparison
