// What two IRs mean for lib.torch's raw layer: each operator is run through
// the API layer (policy, type table) on both sides, and the `extern fn`
// declarations of the entry points are compared as text. An operator
// without a binding on a side is reported, not fatal: an old LibTorch may
// use types the current type table does not bind.
#pragma once

#include "api/policy.h"
#include "model/schema.h"

#include <string>
#include <vector>

namespace codegen::diff {

struct DeclarationChange {
    std::string kind;                             // "added" | "removed" | "changed"
    std::string entry_point;                      // "rt_torch_add_Tensor"
    std::string op;                               // "add.Tensor"
    std::string old_declaration, new_declaration; // "" on the side where it is absent
};

// An operator that gets no entry point on one side.
struct NoBinding {
    std::string side; // "old" | "new"
    std::string op;
    std::string reason; // "excluded by policy: ..." or "no binding: ..."
};

struct DeclarationDiff {
    std::vector<DeclarationChange> changes; // sorted by entry point
    std::vector<NoBinding> no_binding;      // sorted by side, then op
};

DeclarationDiff diff_declarations(const OperatorSet& old_ir, const OperatorSet& new_ir, const api::Policy& policy);

} // namespace codegen::diff
