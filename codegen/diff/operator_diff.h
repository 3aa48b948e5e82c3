// The operators of two IRs compared schema by schema: which were added or
// removed, and for those in both, how each argument and the returns changed.
// Knows only the model (layer 1); what the changes mean for the Simple
// declarations is declaration_diff.h's business.
#pragma once

#include "model/schema.h"

#include <string>
#include <vector>

namespace codegen::diff {

struct ArgumentChange {
    // "added" | "removed" | "renamed" | "type" | "default" | "kwarg_only" | "moved"
    std::string kind;
    std::string argument;  // its name (the new name when renamed)
    std::string old_value; // "" when the argument did not exist; see argument_change_text
    std::string new_value;
};

struct OperatorChange {
    std::string op; // "add.Tensor"
    std::string old_schema, new_schema;
    std::vector<ArgumentChange> arguments;
    bool returns_changed = false;
    std::string old_returns, new_returns; // "Tensor(a!)", "(Tensor values, Tensor indices)", "()"
};

struct OperatorDiff {
    std::vector<std::string> added, removed; // qualified names, sorted
    std::vector<OperatorChange> changed;     // schema text differs; sorted by op
};

// Operators are matched by qualified name (`name.overload`). Arguments are
// matched by name; an argument that disappears where one of the same type
// appears at the same position is reported as renamed.
OperatorDiff diff_operators(const OperatorSet& old_ir, const OperatorSet& new_ir);

// "int dim", "*, Scalar alpha=1": an argument as the schema writes it.
std::string argument_text(const Argument& a);

} // namespace codegen::diff
