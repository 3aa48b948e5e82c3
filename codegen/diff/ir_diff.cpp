// torch-codegen diff: everything an upgrade of LibTorch changes, computed once.
#include "diff/ir_diff.h"

#include <map>

namespace codegen::diff {

IrDiff diff_irs(const OperatorSet& old_ir, const OperatorSet& new_ir, const api::Policy& policy,
                const std::string& library_dir) {
    IrDiff d;
    d.old_side = {old_ir.libtorch_version, old_ir.source, old_ir.operators.size()};
    d.new_side = {new_ir.libtorch_version, new_ir.source, new_ir.operators.size()};
    d.operators = diff_operators(old_ir, new_ir);
    d.declarations = diff_declarations(old_ir, new_ir, policy);
    if (!library_dir.empty()) {
        std::map<std::string, std::string> changes;
        for (const DeclarationChange& c : d.declarations.changes) changes[c.entry_point] = c.kind;
        d.library = find_library_uses(library_dir, changes);
    }
    return d;
}

} // namespace codegen::diff
