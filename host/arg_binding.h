// arg_binding.h — maps the arguments of a call (positional, then named)
// onto the parameters of the callee.
#pragma once

#include <string>
#include <vector>

#include "ast.h"
#include "diagnostics.h"
#include "interpreter.h"

namespace spl {

// target[i] = the parameter index of argument i. `name_of(p)` names parameter
// p < nparams; `what()` names the callee in errors (built only then). The
// result is cached in `plan` for `callee`: a call site keeps calling the same
// function, so the names are compared only once.
template <class NameOf, class What>
const std::vector<int16_t>& arg_targets(const void* callee, ast::ArgPlan* plan, std::vector<int16_t>& scratch,
                                        const ArgList& args, size_t nparams, NameOf name_of, SourceLoc loc, What what) {
    if (plan && plan->callee == callee) return plan->target;
    std::vector<int16_t>& t = plan ? plan->target : scratch;
    t.assign(static_cast<size_t>(args.count), -1);
    std::vector<bool> used(nparams, false);
    for (int i = 0; i < args.count; ++i) {
        const std::string& name = args.names ? (*args.names)[static_cast<size_t>(i)] : std::string();
        size_t p = 0;
        if (name.empty()) {
            p = static_cast<size_t>(i);
            if (p >= nparams)
                runtime_error(loc, what() + " takes " + std::to_string(nparams) + " argument" +
                                       (nparams == 1 ? "" : "s") + " but " + std::to_string(args.count) +
                                       " were given");
        } else {
            while (p < nparams && name_of(p) != name) ++p;
            if (p == nparams) runtime_error(loc, what() + " has no parameter named `" + name + "`");
            if (used[p]) runtime_error(loc, "argument `" + name + "` of " + what() + " is given twice");
        }
        used[p] = true;
        t[static_cast<size_t>(i)] = static_cast<int16_t>(p);
    }
    if (plan) plan->callee = callee;
    return t;
}

} // namespace spl
