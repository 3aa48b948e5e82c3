// checks.cpp — the list of `splrun check`'s checks (checks.h). A new check: a file of this
// folder with its entry point, and a line here.
#include "resolve/checks/checks.h"

#include <algorithm>

#include "resolve/checks/int_division.h"

namespace spl {

const std::vector<StaticCheck>& all_checks() {
    static const std::vector<StaticCheck> checks = {
        {"integer division in a float context", check_int_division},
    };
    return checks;
}

std::vector<Finding> check_module(const ast::Module& m, const CalleeTypes& callees) {
    std::vector<Finding> out;
    for (const StaticCheck& c : all_checks()) c.run(m, callees, out);
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
        return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
    return out;
}

} // namespace spl
