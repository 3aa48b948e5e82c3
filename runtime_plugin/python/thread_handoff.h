// Simple functions called by Python threads: Simple code runs on the interpreter's thread
// alone, so a call made on another Python thread is handed to the interpreter thread, which
// runs it the next time it is in Python (a pending call of CPython's; a Python lock wait there,
// such as Thread.join or a Future's result, is woken by a signal that only interrupts it) or
// enters this plugin, while the calling thread waits without the GIL.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace spl::python {

using SimpleCall = PyObject* (*)(PyObject* self, PyObject* args, PyObject* kwargs);

// Called once, on the interpreter thread, right after Python starts there: that thread serves
// the calls handed over (CPython runs pending calls on the thread that started it) and is the
// one woken. Installs the wake signal's handler where nothing else handles that signal.
void serve_handed_calls_here();

// From a thread other than the interpreter's, GIL held: `call(self, args, kwargs)` run on the
// interpreter thread; its result, or its exception raised again here.
PyObject* call_on_interpreter_thread(SimpleCall call, PyObject* self, PyObject* args, PyObject* kwargs);

// On the interpreter thread, GIL held: runs the calls handed over so far (an entry point does
// it first, and CPython's pending call).
void run_handed_calls() noexcept;

// For a signal handler (keyboard_interrupt.h): whether the interpreter thread is in Python now
// (an entry point's body, no Simple function running inside it); whether this thread is the
// interpreter thread; `sig` sent to the interpreter thread.
bool interpreter_in_python() noexcept;
bool on_interpreter_thread() noexcept;
void signal_interpreter_thread(int sig) noexcept;

// Marks the interpreter thread as running Python code (an entry point's body), the only time
// a wake signal is sent to it: outside Python it would interrupt the host's own system calls.
class InPython {
public:
    InPython() noexcept;
    ~InPython();
    InPython(const InPython&) = delete;
    InPython& operator=(const InPython&) = delete;

private:
    bool counted_;
};

// The opposite, while a Simple function runs inside an entry point (the GIL released).
class OutOfPython {
public:
    OutOfPython() noexcept;
    ~OutOfPython();
    OutOfPython(const OutOfPython&) = delete;
    OutOfPython& operator=(const OutOfPython&) = delete;

private:
    int saved_;
};

} // namespace spl::python
