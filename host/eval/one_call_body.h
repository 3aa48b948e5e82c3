// one_call_body.h — a function body that is one plugin call on its parameters (or their
// fields), run without walking the body.
//
// Most of lib.torch's Tensor API is methods such as
//
//     fn add(other: Tensor, alpha: Scalar = 1) -> Tensor:
//         Tensor(h: rt_torch_add_Tensor(self.h, other.h, alpha))
//
// and every Tensor frees its handle in
//
//     fn drop():
//         if self.h != 0: rt_torch_release(self.h)
//
// Walking such a body (the member reads, the call, the constructor's argument binding)
// costs more than the plugin call itself. Such a body is recognised on a function's first
// call; from then on Interpreter::invoke, once it has bound the arguments to the parameter
// slots (the one place a call is bound), runs the body's plan instead: the extern's
// arguments read straight from those slots, the extern called through call_extern_params,
// the instance built as the constructor would (its other fields take their literal defaults).
// Anything the plan does not cover when it runs (a name that is no longer an extern, a field
// that is not there) walks the body instead, which reports errors as always.
#pragma once

#include "eval/interpreter.h"

namespace spl {

struct OneCallBody;

// The plan of a body of such a form, or null.
std::shared_ptr<const OneCallBody> plan_one_call_body(const ast::FnProto& p);

// Runs `plan` on fn's bound parameters, `slots[s]` the value of slot s (self in slot 0 of a
// method): stores the body's value in `result` and returns true. Returns false, having run nothing, when the plan
// does not apply this time. Throws what the body would throw.
bool run_one_call_body(Interpreter& in, const OneCallBody& plan, const FunctionObj& fn, const Value* const* slots,
                       Value& result);

} // namespace spl
