// overloads.h — which declaration a call runs, by declared parameter types.
//
// An overload set (OverloadSetObj) runs the FIRST of its functions whose
// parameters accept the call: the arguments bind by position and name as for
// any function (arity, names, defaults), and every bound argument's value
// matches its parameter's declared type (types.h). The choice is cached per
// call site, keyed by the set and the kind of each argument (value_kind), so
// a hot loop compares a few words instead of matching types; only arguments
// whose elements decided a match (an array for `[i64]`) are looked at again.
//
// A single function checks its arguments' types when they bind (invoke).
// This file also words the errors of both: no overload matching, an argument
// of the wrong type, a wrong number of arguments.
#pragma once

#include <cstdint>
#include <string>

#include "base/arity.h"
#include "syntax/ast.h"
#include "eval/interpreter.h"
#include "resolve/types.h"
#include "resolve/objects.h"

namespace spl {

// An argument's kind as call-site caches key it: the class of an instance,
// the enum of a variant, else the value's tag or object type. Values of one
// kind are accepted by the same parameters — except arrays and tuples, whose
// elements may decide, which is what OverloadChoice::recheck is for.
inline uintptr_t value_kind(const Value& v) {
    switch (v.tag()) {
    case Value::Tag::Nil: return 1;
    case Value::Tag::Bool: return 2;
    case Value::Tag::Int: return 3;
    case Value::Tag::Float: return 4;
    case Value::Tag::Obj: break;
    }
    const Obj* o = v.obj();
    if (o->type == ObjType::Instance) return reinterpret_cast<uintptr_t>(static_cast<const InstanceObj*>(o)->cls);
    if (o->type == ObjType::Variant) return reinterpret_cast<uintptr_t>(static_cast<const VariantObj*>(o)->type);
    return 16 + static_cast<uintptr_t>(o->type); // pointers are never this small
}

// type_accepts with the common answers inline (a scalar, an instance of
// the declared class): what a single function's binding checks per argument.
inline bool type_accepts_inline(const TypeSpec& t, const Value& v, bool overload, bool* inside) {
    switch (t.kind) {
    case TypeSpec::Kind::Int:
        if (v.is_int()) return true;
        break;
    case TypeSpec::Kind::Float:
        if (v.is_number()) return true;
        break;
    case TypeSpec::Kind::Bool:
        if (v.is_bool()) return true;
        break;
    case TypeSpec::Kind::Text:
        if (v.is(ObjType::Str)) return true;
        break;
    case TypeSpec::Kind::Named:
        if (v.is(ObjType::Instance) && v.as<InstanceObj>()->cls == t.named->obj()) return true;
        break;
    default: break;
    }
    return type_accepts(t, v, overload, inside);
}

// A cached choice still holds for these arguments: the chosen overload
// still accepts the arguments whose elements decided it.
bool recheck_holds(const OverloadChoice& e, const ArgList& args);

// The hot path: the choice the call site's cache holds for this set and
// these kinds of arguments (`fn` null: no overload accepts them), or null
// when the cache cannot answer (then match_overload).
inline OverloadChoice* cached_choice(const OverloadSetObj& set, const ArgList& args, OverloadSite* site) {
    if (!site || !*site) return nullptr;
    const size_t n = static_cast<size_t>(args.count);
    for (OverloadChoice& e : (*site)->entries) {
        if (e.set != &set || e.kinds.size() != n) continue;
        size_t i = 0;
        while (i < n && e.kinds[i] == value_kind(args.values[i])) ++i;
        if (i < n) continue;
        if (e.resolve_again || (e.recheck && !recheck_holds(e, args))) return nullptr;
        return &e;
    }
    return nullptr;
}

struct Chosen {
    const FunctionObj* fn = nullptr; // null: no overload accepts the call
    ArgPlan* plan = nullptr;         // how the arguments bind to fn's parameters
};

// The first overload of `set` that accepts `args`, found by matching each
// overload in turn. With a `site`, the choice is recorded there (after
// cached_choice could not answer); without one, `scratch` holds the plan.
Chosen match_overload(const OverloadSetObj& set, const ArgList& args, OverloadSite* site, ArgPlan& scratch);

// The overload of `set` a call runs, the one way every call chooses: the site's cached choice
// when it still holds, else matched now (and recorded at the site). `fn` null: none accepts.
inline Chosen choose_overload(const OverloadSetObj& set, const ArgList& args, OverloadSite* site, ArgPlan& scratch) {
    if (OverloadChoice* e = cached_choice(set, args, site))
        return Chosen{static_cast<const FunctionObj*>(e->fn), &e->plan};
    return match_overload(set, args, site, scratch);
}

// Whether a single function accepts `args` (arity, names, types), with the
// rules of a single function. For the operator protocol, which tries the
// reflected method when the left operand's does not accept the call.
bool function_accepts(const FunctionObj& fn, const ArgList& args);

// `add(other: Tensor, alpha: any = 1) -> Tensor`
std::string signature_text(const ast::FnProto& p);

// "\n  signature: add(...)": appended to a single function's arity errors.
std::string signature_note(const ast::FnProto& p);

// What an arity error says of p (base/arity.h): its name, how many positional arguments it
// takes, its signature.
Arity arity_of(const ast::FnProto& p);

// no overload of `Tensor.add` accepts (Tensor, text)
//   accepted:
//     add(other: Tensor, alpha: any = 1) -> Tensor
//     add(other: any, alpha: any = 1) -> Tensor
[[noreturn]] void no_overload_error(const Interpreter& in, const OverloadSetObj& set, const ArgList& args,
                                    SourceLoc loc);

// Tensor.add() argument 'other' must be Tensor, got text
//   signature: add(other: Tensor, alpha: any = 1) -> Tensor
[[noreturn]] void argument_type_error(const Interpreter& in, const ast::FnProto& p, size_t param, const Value& v,
                                      SourceLoc loc);

} // namespace spl
