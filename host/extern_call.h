// extern_call.h — calling a plugin function: through its typed symbol when every argument is a
// scalar (typed_call.h), else through its boxed thunk.
//
// Arguments are matched to the declaration's parameters by the host
// (positional, then by name); the plugin receives the leading `nargs`
// parameters, where a gap before a given argument is filled with the
// declaration's default. Values are converted by the declared types:
//   i64 <-> SPL_I64, f64 <-> SPL_F64 (an i64 argument is widened), bool,
//   text <-> SPL_TEXT, [T] and tuples <-> SPL_ARRAY, nil <-> SPL_NIL.
// Results are copied out at once (the plugin's scratch storage is reused on
// the next call); SPL_STATUS_ERROR becomes a runtime error at the call.
#pragma once

#include "interpreter.h"

namespace spl {

// Fills the conversion table of an extern from its declaration's types, and its typed plan
// (typed_call.h) from its registration and the plugin's error functions.
void prepare_extern(ExternObj& ex, PluginErrors errors);

Value call_extern(Interpreter& in, const ExternObj& ex, ArgList& args, ast::ArgPlan* plan, SourceLoc loc);

// The call once arguments are matched to parameters: parameter p (p < nargs) is *by_param[p],
// or the declaration's default where by_param[p] is null; the plugin's defaults fill the rest.
Value call_extern_params(Interpreter& in, const ExternObj& ex, const Value* const* by_param, size_t nargs,
                         SourceLoc loc);

} // namespace spl
