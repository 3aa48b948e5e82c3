// SIGINT split between Python and the host (keyboard_interrupt.h): in Python, the signal trips
// Python's SIGINT entry (PyErr_SetInterruptEx, safe in a handler) and interrupts the lock wait or
// sleep the interpreter thread is in, so CPython raises KeyboardInterrupt there; outside Python,
// the default disposition is put back and the signal raised again.
#include "python/keyboard_interrupt.h"

#include "python/errors.h"
#include "python/thread_handoff.h"

#include <signal.h>

#include <cerrno>

namespace spl::python {
namespace {

extern "C" void on_sigint(int sig) {
    const int saved_errno = errno;
    if (!interpreter_in_python()) {
        ::signal(sig, SIG_DFL); // Simple code runs: stopped as a host without lib.python is
        ::raise(sig);
    } else if (!on_interpreter_thread()) {
        signal_interpreter_thread(sig); // its wait is the one to interrupt, and it raises the error
    } else {
        PyErr_SetInterruptEx(sig);
    }
    errno = saved_errno;
}

} // namespace

void install_keyboard_interrupt() {
    struct sigaction host {};
    if (sigaction(SIGINT, nullptr, &host) != 0 || (host.sa_flags & SA_SIGINFO) || host.sa_handler != SIG_DFL) return;
    // Python's table entry for SIGINT, which PyErr_SetInterruptEx trips (signal.signal installs
    // Python's own process handler as well, which ours replaces below).
    try {
        Ref signal_module = owned(PyImport_ImportModule("signal"));
        Ref handler = owned(PyObject_GetAttrString(signal_module.get(), "default_int_handler"));
        owned(PyObject_CallMethod(signal_module.get(), "signal", "iO", SIGINT, handler.get()));
    } catch (const PythonError&) { // a Python without its signal module: Ctrl-C stays the host's
        return;
    }
    struct sigaction ours {};
    ours.sa_handler = on_sigint;
    sigemptyset(&ours.sa_mask);
    ours.sa_flags = 0; // no SA_RESTART: a wait in Python returns, and CPython looks at its signals
    sigaction(SIGINT, &ours, nullptr);
}

} // namespace spl::python
