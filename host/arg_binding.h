// arg_binding.h — maps the arguments of a call (positional, then named)
// onto the parameters of the callee.
#pragma once

#include <cstdint>
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
const std::vector<int32_t>& arg_targets(const void* callee, ast::ArgPlan* plan, std::vector<int32_t>& scratch,
                                        const ArgList& args, size_t nparams, NameOf name_of, SourceLoc loc, What what) {
    if (plan && plan->callee == callee) return plan->target;
    std::vector<int32_t>& t = plan ? plan->target : scratch;
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
        t[static_cast<size_t>(i)] = static_cast<int32_t>(p);
    }
    if (plan) plan->callee = callee;
    return t;
}

// Which parameters (or fields) a call gave a value: a bit each, in one word up to 64 and in
// words on the heap beyond, so that a named argument binds whatever the callee's arity.
class GivenSet {
public:
    explicit GivenSet(size_t n) : n_(n) {
        if (n > 64) more_.assign((n + 63) / 64, 0);
    }
    void add(size_t i) {
        if (n_ <= 64)
            bits_ |= uint64_t(1) << i;
        else
            more_[i / 64] |= uint64_t(1) << (i % 64);
    }
    void add_first(size_t count) { // the first `count`, given by position
        for (size_t i = 0; i < count; ++i) add(i);
    }
    bool has(size_t i) const { return n_ <= 64 ? (bits_ >> i) & 1 : (more_[i / 64] >> (i % 64)) & 1; }

private:
    size_t n_;
    uint64_t bits_ = 0;
    std::vector<uint64_t> more_;
};

} // namespace spl
