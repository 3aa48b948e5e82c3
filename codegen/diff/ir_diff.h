// `torch-codegen diff OLD_IR NEW_IR`: everything an upgrade of LibTorch
// changes for spl-torch, computed once and formatted by diff_report.h.
//   - operators: added, removed, signature changed (operator_diff.h);
//   - Simple `extern fn` declarations: added, removed, changed, and the
//     operators without a binding on either side (declaration_diff.h);
//   - lines of the hand-written Simple library that call a changed entry
//     point (library_uses.h).
#pragma once

#include "api/policy.h"
#include "diff/declaration_diff.h"
#include "diff/library_uses.h"
#include "diff/operator_diff.h"

#include <optional>
#include <string>

namespace codegen::diff {

struct Side {
    std::string libtorch_version; // "1.13.1"
    std::string source;           // "headers" | "native_functions.yaml"
    size_t operators = 0;
};

struct IrDiff {
    Side old_side, new_side;
    OperatorDiff operators;
    DeclarationDiff declarations;
    std::optional<LibraryScan> library; // absent when no library was given
};

// `library_dir` empty: no library scan.
IrDiff diff_irs(const OperatorSet& old_ir, const OperatorSet& new_ir, const api::Policy& policy,
                const std::string& library_dir);

} // namespace codegen::diff
