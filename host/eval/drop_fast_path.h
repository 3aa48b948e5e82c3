// drop_fast_path.h — a `drop` that is one plugin call on a field of self, run
// without a Simple frame.
//
// lib.torch's Tensor frees its handle in `drop` (`if self.h != 0: rt_torch_release(self.h)`),
// once for every temporary of every expression; running that body as Simple code (a frame,
// the condition, the member reads, the call) costs more than the plugin call itself. Such a
// body is recognised once per class, and then called straight through call_extern.
#pragma once

#include "eval/interpreter.h"

namespace spl {

// Fills cls.drop_fast when cls's `drop` is `EXTERN(self.F)` or `if self.F != 0: EXTERN(self.F)`
// with EXTERN a module-level name (an `extern fn` when it runs; anything else takes the
// ordinary path).
void plan_drop(ClassObj& cls);

// Runs that plan for `instance` when it applies (the field holds an integer and the name an
// extern): returns false, having done nothing, when it does not. Throws what call_extern throws.
bool run_drop_fast(Interpreter& in, InstanceObj& instance);

} // namespace spl
