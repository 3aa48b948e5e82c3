// checks.h — `splrun check`: static checks of a parsed program, run without running it.
//
// Each check is one file of this folder with one entry point that reads a module's syntax tree
// and appends what it finds; all_checks() lists them in the order they run. A finding is a
// warning at a place in the program: `splrun check` prints it as `FILE:LINE:COL: warning: ...`.
// The checks see the tree as parsed, names not resolved (imports are not loaded, so nothing
// of the program or its libraries runs): a check works out what it needs itself and says
// nothing where it cannot be sure. What the imported functions declare, read from their
// modules' sources without running them, it asks of CalleeTypes (callee_types.h).
#pragma once

#include <string>
#include <vector>

#include "base/source.h"
#include "resolve/checks/callee_types.h"
#include "syntax/ast.h"

namespace spl {

struct Finding {
    SourceLoc loc;
    std::string message; // after "warning: "
};

struct StaticCheck {
    const char* name; // what it looks for, in a word or two
    void (*run)(const ast::Module& m, const CalleeTypes& callees, std::vector<Finding>& out);
};

const std::vector<StaticCheck>& all_checks();

// Every check on one module, its findings in source order; `callees` has read its imports.
std::vector<Finding> check_module(const ast::Module& m, const CalleeTypes& callees);

} // namespace spl
