// Simple functions as Python callables: a function, closure or bound method passed to Python
// (lib.python encodes it as ["callable", adapter, name]) becomes a `SimpleFunction` object that
// holds the host callable and runs it when Python calls it, on the Simple interpreter's thread
// (called on another thread, the call is handed there: thread_handoff.h). Every function needs the GIL.
#pragma once

#include "python/errors.h"

#include "spl_plugin.h"

namespace spl::python {

// A new reference: a Python callable running `adapter` (an SPL_CALLABLE the host lent for the
// call; retained here), shown as `name`. The adapter is lib.python's (object.spl's
// from_python_call): it takes (args, kw_names, kw_values), the arguments as results
// (convert.h: new handles it owns), calls the Simple function with them decoded and returns a
// new handle of its result, which this plugin takes.
PyObject* simple_function(const SplValue& adapter, const SplValue& name, const char* what);

// Releases the host callables whose SimpleFunction Python freed since the last call. Python
// may free one anywhere (inside a plugin call that is building its result, on a Python
// thread); releasing it then could run Simple code (a `drop`) in the middle of that call, so
// they are released at the start of the next entry point instead (Gil does it first).
void release_dropped_functions() noexcept;

// How many SimpleFunction objects are alive, for leak tests.
int64_t live_simple_functions() noexcept;

} // namespace spl::python
