// extern_call.h — calling a plugin function: through its typed symbol when every argument is a
// scalar (typed_call.h), else through its boxed thunk.
//
// Arguments are matched to the declaration's parameters by the host
// (positional, then by name); the plugin receives the leading `nargs`
// parameters, where a gap before a given argument is filled with the
// declaration's default. Values are converted by the declared types (boxing.h).
// Results are copied out at once (the plugin's scratch storage is reused on
// the next call); SPL_STATUS_ERROR becomes a runtime error at the call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/source.h"
#include "base/value.h"
#include "ffi/boxing.h"
#include "ffi/host_callbacks.h"
#include "ffi/plugin_caller.h"
#include "ffi/typed_call.h"
#include "resolve/objects.h"
#include "spl_plugin.h"
#include "syntax/ast.h"

namespace spl {

struct ExternObj : Obj {
    ExternObj(const ast::ExternDecl* d, const SplFunction* f) : Obj(ObjType::Extern), decl(d), fn(f) {}
    const ast::ExternDecl* decl;
    const SplFunction* fn; // resolved once, when the declaration is loaded
    std::vector<Conv> params;
    Conv ret;
    std::vector<Value> defaults; // evaluated default of each parameter (nil when required)
    std::vector<bool> has_default;
    TypedPlan typed; // calling the typed symbol (typed_call.h); a null caller: boxed only
};

// Fills the conversion table of an extern from its declaration's types, and its typed plan
// (typed_call.h) from its registration and the plugin's error functions.
void prepare_extern(ExternObj& ex, PluginErrors errors);

// The call through the boxed thunk, arguments matched as for call_extern_params. (Matching a
// call's arguments to the parameters first: call_extern, eval/calls.cpp.)
Value call_boxed(PluginCaller& in, const ExternObj& ex, const Value* const* by_param, size_t nargs, SourceLoc loc);

// Raises the error a typed call left pending.
[[noreturn]] void typed_call_failed(PluginCaller& in, const ExternObj& ex, SourceLoc loc);

// ---- the typed path, inline: it is every scalar call's path (one-element tensor arithmetic
// spends more in these few lines than in anything else of the host).

// The typed carrier of `v` for a parameter `tp`; false when the boxed thunk must take the call
// (a value that is no scalar, or one the Boxer refuses: it then reports the error).
inline bool to_carrier(const Value& v, const TypedPlan::Param& tp, CArg& out) {
    using P = TypedPlan;
    auto boxed = [&out](int32_t tag) -> SplValue& { // an `any` / `T?` argument: a tagged value
        out.v = SplValue{};
        out.v.tag = tag;
        return out.v;
    };
    switch (v.tag()) {
    case Value::Tag::Int:
        if (!(tp.accepts & P::kInt)) return false;
        if (tp.carrier == Carrier::I64)
            out.i = v.as_int();
        else if (tp.carrier == Carrier::F64)
            out.d = static_cast<double>(v.as_int());
        else if (tp.int_as_float)
            boxed(SPL_F64).as.f = static_cast<double>(v.as_int());
        else
            boxed(SPL_I64).as.i = v.as_int();
        return true;
    case Value::Tag::Float:
        if (!(tp.accepts & P::kFloat)) return false;
        if (tp.carrier == Carrier::F64)
            out.d = v.as_float();
        else
            boxed(SPL_F64).as.f = v.as_float();
        return true;
    case Value::Tag::Bool:
        if (!(tp.accepts & P::kBool)) return false;
        if (tp.carrier == Carrier::Bool)
            out.b = v.as_bool();
        else
            boxed(SPL_BOOL).as.b = v.as_bool();
        return true;
    case Value::Tag::Nil:
        if (!(tp.accepts & P::kNil)) return false;
        boxed(SPL_NIL);
        return true;
    default: return false;
    }
}

// Makes the call through the typed symbol when ex has a typed plan and every argument is a
// scalar: stores the result and returns true; false (nothing called) otherwise.
inline bool call_typed(PluginCaller& in, const ExternObj& ex, const Value* const* by_param, size_t nargs, SourceLoc loc,
                       Value& result) {
    const TypedPlan& plan = ex.typed;
    CArg argv[3];
    for (size_t p = 0; p < plan.nparams; ++p) {
        const Value* v = p < nargs ? by_param[p] : nullptr;
        if (!v) {
            if (p < nargs ? !ex.has_default[p] : !plan.params[p].fill_default) return false;
            v = &ex.defaults[p];
        }
        if (!to_carrier(*v, plan.params[p], argv[p])) return false;
    }
    const CResult r = plan.caller(ex.fn->typed, argv);
    // A failed typed call returns 0 (false, 0.0): any other result is a success.
    const bool zero = plan.result == CResultKind::I64    ? r.i == 0
                      : plan.result == CResultKind::F64  ? r.d == 0.0
                      : plan.result == CResultKind::Bool ? !r.b
                                                         : true;
    if (zero && plan.errors.pending()) typed_call_failed(in, ex, loc);
    switch (plan.result) {
    case CResultKind::Void: result = Value(); break;
    case CResultKind::I64:
        result = ex.ret.kind == ConvKind::F64 ? Value::number(static_cast<double>(r.i)) : Value::integer(r.i);
        break;
    case CResultKind::F64: result = Value::number(r.d); break;
    case CResultKind::Bool: result = Value::boolean(r.b); break;
    }
    return true;
}

// The call once arguments are matched to parameters: parameter p (p < nargs) is *by_param[p],
// or the declaration's default where by_param[p] is null; the plugin's defaults fill the rest.
inline Value call_extern_params(PluginCaller& in, const ExternObj& ex, const Value* const* by_param, size_t nargs,
                                SourceLoc loc) {
    ++in.extern_calls;
    Value result;
    if (ex.typed.caller && call_typed(in, ex, by_param, nargs, loc, result)) return result;
    return call_boxed(in, ex, by_param, nargs, loc);
}

} // namespace spl
