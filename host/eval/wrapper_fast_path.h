// wrapper_fast_path.h — a function whose body is one plugin call on its parameters (or their
// fields), run without a Simple frame.
//
// Most of lib.torch's Tensor API is methods such as
//
//     fn add(other: Tensor, alpha: Scalar = 1) -> Tensor:
//         Tensor(h: rt_torch_add_Tensor(self.h, other.h, alpha))
//
// Running that body as Simple code (a frame, the default, the member reads, the call, the
// constructor's argument binding) costs more than the plugin call itself. Such a body is
// recognised on a function's first call; from then on a call reads the extern's arguments
// straight from its own arguments, calls the extern through call_extern and builds the
// one-field instance as the constructor would. Anything the plan does not cover (named
// arguments, a field missing, a name that is not an extern when it runs) takes the ordinary
// path, which reports errors as always.
#pragma once

#include "eval/interpreter.h"

namespace spl {

// Runs fn's body by its plan when fn has one and the call fits it: stores the body's value in
// `result` and returns true. Returns false, having run nothing, otherwise. Throws what the
// body would throw (with fn's trace entry).
bool run_wrapper_fast(Interpreter& in, const FunctionObj& fn, const Value* self, ArgList& args, SourceLoc loc,
                      bool types_checked, Value& result);

} // namespace spl
