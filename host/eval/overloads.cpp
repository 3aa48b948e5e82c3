// Chooses the overload a call runs by declared parameter types, with per-site caches and messages.
#include "eval/overloads.h"

#include "eval/arg_binding.h"

#include <algorithm>
#include <vector>

namespace spl {

using ast::FnProto;
using ast::Param;

namespace {

const TypeSpec& spec_of(const Param& p) { return p.spec ? *p.spec : *untyped_spec(); }

// Binds arguments to parameters as `invoke` does (bind_argument_targets), but answers
// instead of raising: false when there are too many arguments, a name matches no parameter
// or one given twice, or a required parameter is left without a value.
bool bind_targets(const FnProto& p, const ArgList& args, std::vector<int32_t>& target) {
    const size_t nparams = p.params.size();
    int bad = 0;
    if (bind_argument_targets(
            args, nparams, RestParams{p.rest_positional, p.rest_named},
            [&](size_t k) -> const std::string& { return p.params[k].name; }, target, bad) != BindError::None)
        return false;
    std::vector<bool> given(nparams, false);
    for (int32_t k : target) given[static_cast<size_t>(k)] = true;
    for (size_t k = 0; k < nparams; ++k)
        if (!given[k] && !p.params[k].default_value && p.params[k].rest == Param::Rest::None) return false;
    return true;
}

enum class Fit : uint8_t {
    Yes,
    No,           // for a reason every call of this shape shares (arity, names, an argument's kind)
    NoByElements, // only because of an array's or tuple's elements: another call of this shape may fit
};

// Does `fn` accept `args` as an overload? `inside` gets a bit per argument
// whose elements were looked at (all bits for arguments past 63).
Fit overload_fit(const FunctionObj& fn, const ArgList& args, std::vector<int32_t>& target, uint64_t& inside) {
    const FnProto& p = *fn.proto;
    inside = 0;
    if (!bind_targets(p, args, target)) return Fit::No;
    Fit fit = Fit::Yes;
    for (int i = 0; i < args.count; ++i) {
        if (target[static_cast<size_t>(i)] == p.rest_named) continue; // a named variadic takes any value
        bool looked = false;
        bool ok = type_accepts(spec_of(p.params[static_cast<size_t>(target[static_cast<size_t>(i)])]), args.values[i],
                               true, &looked);
        if (looked) inside |= i < 64 ? uint64_t(1) << i : ~uint64_t(0);
        if (!ok) {
            if (!looked) return Fit::No;
            fit = Fit::NoByElements;
        }
    }
    return fit;
}

std::string received_text(const Interpreter& in, const ArgList& args) {
    std::string out = "(";
    for (int i = 0; i < args.count; ++i) {
        if (i) out += ", ";
        if (args.names && !(*args.names)[static_cast<size_t>(i)].empty())
            out += (*args.names)[static_cast<size_t>(i)] + ": ";
        out += describe_value_type(args.values[i], [&](const Value& v) { return in.type_name(v); });
    }
    return out + ")";
}

} // namespace

bool recheck_holds(const OverloadChoice& e, const ArgList& args) {
    const FnProto& p = *static_cast<const FunctionObj*>(e.fn)->proto;
    for (int i = 0; i < args.count; ++i) {
        if (i < 64 && !((e.recheck >> i) & 1)) continue;
        if (e.plan.target[static_cast<size_t>(i)] == p.rest_named) continue;
        bool looked = false;
        const Param& prm = p.params[static_cast<size_t>(e.plan.target[static_cast<size_t>(i)])];
        if (!type_accepts(spec_of(prm), args.values[i], true, &looked)) return false;
    }
    return true;
}

Chosen match_overload(const OverloadSetObj& set, const ArgList& args, OverloadSite* site, ArgPlan& scratch) {
    const size_t n = static_cast<size_t>(args.count);
    uintptr_t inline_kinds[8];
    std::vector<uintptr_t> heap_kinds;
    uintptr_t* kinds = inline_kinds;
    if (n > 8) {
        heap_kinds.resize(n);
        kinds = heap_kinds.data();
    }
    for (size_t i = 0; i < n; ++i) kinds[i] = value_kind(args.values[i]);

    // An entry for this shape whose elements must be looked at again is
    // refilled in place rather than duplicated.
    OverloadChoice* entry = nullptr;
    if (site && *site) {
        for (OverloadChoice& e : (*site)->entries) {
            if (e.set != &set || e.kinds.size() != n) continue;
            size_t i = 0;
            while (i < n && e.kinds[i] == kinds[i]) ++i;
            if (i == n) {
                entry = &e;
                break;
            }
        }
    }

    // First match, in declaration order.
    const FunctionObj* chosen = nullptr;
    std::vector<int32_t> target;
    uint64_t inside = 0;
    bool by_elements = false; // an earlier overload was refused for its elements only
    for (const Value& f : set.fns) {
        const auto* fn = f.as<FunctionObj>();
        Fit fit = overload_fit(*fn, args, target, inside);
        if (fit == Fit::Yes) {
            chosen = fn;
            break;
        }
        if (fit == Fit::NoByElements) by_elements = true;
    }

    if (!site) {
        if (!chosen) return Chosen{};
        scratch.callee = chosen->proto;
        scratch.target = std::move(target);
        return Chosen{chosen, &scratch};
    }
    if (!*site) *site = std::make_unique<OverloadCache>();
    if (!entry) {
        OverloadCache& cache = **site;
        for (OverloadChoice& e : cache.entries)
            if (!e.set) {
                entry = &e;
                break;
            }
        if (!entry) entry = &cache.entries[cache.next++ % OverloadCache::kEntries];
    }
    // A refusal is cached too (the operator protocol then goes straight to
    // the reflected method), unless elements decided it.
    entry->set = &set;
    entry->keep = Value(const_cast<OverloadSetObj*>(&set));
    entry->fn = chosen;
    entry->kinds.assign(kinds, kinds + n);
    entry->recheck = chosen ? inside : 0;
    entry->resolve_again = by_elements;
    entry->plan.callee = chosen ? chosen->proto : nullptr;
    entry->plan.target = std::move(target);
    return Chosen{chosen, chosen ? &entry->plan : nullptr};
}

bool function_accepts(const FunctionObj& fn, const ArgList& args) {
    const FnProto& p = *fn.proto;
    const size_t n = static_cast<size_t>(args.count);
    if (!args.names && !p.has_rest()) { // the operator protocol's case: no allocation
        if (n > p.params.size()) return false;
        for (size_t k = n; k < p.params.size(); ++k)
            if (!p.params[k].default_value) return false;
        bool looked = false;
        for (size_t i = 0; i < n && p.checks_args; ++i)
            if (!type_accepts(spec_of(p.params[i]), args.values[i], false, &looked)) return false;
        return true;
    }
    std::vector<int32_t> target;
    if (!bind_targets(p, args, target)) return false;
    if (!p.checks_args) return true;
    for (size_t i = 0; i < n; ++i) {
        bool looked = false;
        if (target[i] != p.rest_named &&
            !type_accepts(spec_of(p.params[static_cast<size_t>(target[i])]), args.values[i], false, &looked))
            return false;
    }
    return true;
}

std::string signature_text(const FnProto& p) {
    std::string s = p.name + "(";
    for (size_t i = 0; i < p.params.size(); ++i) {
        const Param& prm = p.params[i];
        if (i) s += ", ";
        s += prm.name;
        if (!prm.type.empty()) s += ": " + prm.type.text;
        if (prm.rest != Param::Rest::None) s += "...";
        if (prm.default_value) s += " = " + prm.default_text;
    }
    s += ")";
    if (!p.return_type.empty()) s += " -> " + p.return_type.text;
    return s;
}

std::string signature_note(const FnProto& p) { return "\n  signature: " + signature_text(p); }

Arity arity_of(const FnProto& p) {
    // Positional arguments fill the parameters before the first variadic one (arg_binding.h).
    size_t positional = p.params.size();
    if (p.rest_positional >= 0) positional = static_cast<size_t>(p.rest_positional);
    if (p.rest_named >= 0) positional = std::min(positional, static_cast<size_t>(p.rest_named));
    size_t required = 0;
    for (size_t i = 0; i < positional; ++i) required += !p.params[i].default_value;
    return Arity{p.qualified_name, required, p.rest_positional >= 0 ? Arity::kAny : positional, signature_note(p)};
}

void no_overload_error(const Interpreter& in, const OverloadSetObj& set, const ArgList& args, SourceLoc loc) {
    std::string msg = "no overload of `" + set.name + "` accepts " + received_text(in, args) + "\n  accepted:";
    for (const Value& f : set.fns) msg += "\n    " + signature_text(*f.as<FunctionObj>()->proto);
    runtime_error(loc, std::move(msg));
}

void argument_type_error(const Interpreter& in, const FnProto& p, size_t param, const Value& v, SourceLoc loc) {
    const Param& prm = p.params[param];
    runtime_error(loc, p.qualified_name + "() argument '" + prm.name + "' must be " + prm.type.text + ", got " +
                           describe_value_type(v, [&](const Value& x) { return in.type_name(x); }) + signature_note(p));
}

} // namespace spl
