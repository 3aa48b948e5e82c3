// The embedded CPython: started on the first call into the plugin, from the Python named by
// SPL_PYTHON or, without it, the one the plugin was built against (its path baked in as
// SPL_PYTHON_DEFAULT); the GIL, taken by every entry point and released between calls.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "python/thread_handoff.h"

#include <optional>
#include <string>

namespace spl::python {

// Starts Python once per process (later calls return at once). A Python that cannot start
// (SPL_PYTHON naming a missing file, a failed initialisation) fails this and every later call
// with one PythonUnavailable error naming the Python looked for and why.
void ensure_started();

// The Python executable this process uses or tried to use (SPL_PYTHON, else the default).
std::string python_executable();

// Held by every entry point for its whole body, made first: starts Python if needed, releases
// the Simple functions Python dropped since the last call (callables.h), flushes
// the host's C stdio (so that what Python prints comes after what the program printed before),
// starts the call's results afresh (abi/boxed_values.h: they live until the thread's next call),
// takes the GIL and runs the Simple calls Python threads handed over (thread_handoff.h). One per entry point; the
// plugin never holds the GIL between calls.
class Gil {
public:
    Gil();
    ~Gil();
    Gil(const Gil&) = delete;
    Gil& operator=(const Gil&) = delete;

private:
    PyGILState_STATE state_;
    std::optional<InPython> in_python_; // from the GIL taken to its release
};

// The globals of `__main__`, where py_eval and py_exec run (borrowed; GIL held).
PyObject* main_globals();

} // namespace spl::python
