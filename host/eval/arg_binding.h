// arg_binding.h — maps the arguments of a call (positional, then named)
// onto the parameters of the callee.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "syntax/ast.h"
#include "base/arity.h"
#include "base/diagnostics.h"
#include "eval/interpreter.h"

namespace spl {

// The variadic parameters of a callee (FnProto::rest_positional, rest_named), or -1.
struct RestParams {
    int positional = -1; // `name: T...`: the positional arguments past the others
    int named = -1;      // `name: {text: T}...`: the named arguments no parameter takes
};

enum class BindError { None, TooMany, UnknownName, GivenTwice };

// The one routine that maps a call's arguments (positional, then named) onto parameters:
// target[i] = the parameter argument i fills. Positional arguments fill the parameters before
// the first variadic one, then the positional variadic; a name matches a parameter that is not
// variadic, else goes to the named variadic. On failure, `bad` is the argument's index.
template <class NameOf>
BindError bind_argument_targets(const ArgList& args, size_t nparams, RestParams rest, NameOf name_of,
                                std::vector<int32_t>& t, int& bad) {
    const bool has_rest = rest.positional >= 0 || rest.named >= 0;
    size_t npositional = nparams;
    if (rest.positional >= 0) npositional = static_cast<size_t>(rest.positional);
    if (rest.named >= 0) npositional = std::min(npositional, static_cast<size_t>(rest.named));
    t.assign(static_cast<size_t>(args.count), -1);
    std::vector<bool> used(nparams, false);
    std::vector<const std::string*> rest_names; // names the named variadic took, for "given twice"
    for (int i = 0; i < args.count; ++i) {
        bad = i;
        const std::string* name = args.names ? &(*args.names)[static_cast<size_t>(i)] : nullptr;
        size_t p = 0;
        if (!name || name->empty()) {
            p = static_cast<size_t>(i);
            if (p >= npositional) {
                if (rest.positional < 0) return BindError::TooMany;
                p = static_cast<size_t>(rest.positional);
            }
        } else {
            while (p < nparams && (name_of(p) != *name || (has_rest && (static_cast<int>(p) == rest.positional ||
                                                                        static_cast<int>(p) == rest.named))))
                ++p;
            if (p == nparams) {
                if (rest.named < 0) return BindError::UnknownName;
                for (const std::string* seen : rest_names)
                    if (*seen == *name) return BindError::GivenTwice;
                rest_names.push_back(name);
                p = static_cast<size_t>(rest.named);
            } else if (used[p]) {
                return BindError::GivenTwice;
            }
        }
        if (static_cast<int>(p) != rest.positional && static_cast<int>(p) != rest.named) used[p] = true;
        t[static_cast<size_t>(i)] = static_cast<int32_t>(p);
    }
    return BindError::None;
}

// bind_argument_targets for a call that must bind: its failures raised with what `arity()`
// says of the callee (base/arity.h; built only then). The result is cached in `plan` for
// `callee`: a call site keeps calling the same function, so the names are compared only once.
template <class NameOf, class ArityOf>
const std::vector<int32_t>& arg_targets(const void* callee, ArgPlan* plan, std::vector<int32_t>& scratch,
                                        const ArgList& args, size_t nparams, NameOf name_of, SourceLoc loc,
                                        ArityOf arity, RestParams rest = {}) {
    if (plan && plan->callee == callee) return plan->target;
    std::vector<int32_t>& t = plan ? plan->target : scratch;
    int bad = 0;
    switch (bind_argument_targets(args, nparams, rest, name_of, t, bad)) {
    case BindError::None: break;
    case BindError::TooMany: {
        size_t positional = 0;
        for (int i = 0; i < args.count; ++i) positional += !args.names || (*args.names)[static_cast<size_t>(i)].empty();
        arity_error(loc, arity(), positional);
    }
    case BindError::UnknownName: {
        const Arity a = arity();
        runtime_error(loc, "`" + a.callee + "` has no parameter named `" + (*args.names)[static_cast<size_t>(bad)] +
                               "`" + a.note);
    }
    case BindError::GivenTwice: {
        const Arity a = arity();
        runtime_error(loc, "argument `" + (*args.names)[static_cast<size_t>(bad)] + "` of `" + a.callee +
                               "` is given twice" + a.note);
    }
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
