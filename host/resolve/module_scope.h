// module_scope.h — a module's top-level names: its own definitions and its
// imports, each given a global slot before the resolver binds the body.
#pragma once

#include <string>
#include <unordered_set>

#include "resolve/objects.h"

namespace spl {

// What the resolver needs to know of a module's globals beyond their slots.
struct ModuleScope {
    std::unordered_set<std::string> mutable_globals;    // top-level `var`s
    std::unordered_set<std::string> assignable_globals; // top-level val/var (val only at its declaration)
    std::unordered_set<std::string> star_imported;      // bound by `use m.*` (builtins stay a fallback for them)
};

// Gives every top-level name of `m` (definitions, `use` bindings, exports) a
// slot in `m.globals` and points each declaration at its slot. Own
// definitions win over imports, explicit imports over star imports. Throws
// ProgramError (ErrorKind::Name) for a name defined twice or a bad export.
ModuleScope collect_module_scope(ModuleObj& m);

} // namespace spl
