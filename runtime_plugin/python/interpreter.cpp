// Embedding CPython: PyConfig from the chosen executable (so that a venv's site-packages are on
// sys.path), no signal handlers of Python's (SIGINT is split with the host: keyboard_interrupt.h),
// unbuffered stdio; the GIL released
// after start-up and taken again by each entry point (Gil).
#include "python/interpreter.h"

#include "abi/boxed_values.h"
#include "python/callables.h"
#include "python/errors.h"
#include "python/keyboard_interrupt.h"
#include "python/thread_handoff.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>

#ifndef SPL_PYTHON_DEFAULT
#error "SPL_PYTHON_DEFAULT (the Python to embed by default) is set by runtime_plugin/python/meson.build"
#endif

namespace spl::python {
namespace {

struct StartState {
    std::once_flag once;
    std::string failure; // empty once started
};

StartState& state() {
    static StartState* s = new StartState(); // leaked: Python is never finalized either
    return *s;
}

bool from_environment() {
    const char* env = std::getenv("SPL_PYTHON");
    return env && *env;
}

std::string describe_python() {
    return python_executable() + (from_environment() ? " (SPL_PYTHON)" : " (the default; SPL_PYTHON overrides it)");
}

std::string status_text(const PyStatus& status) {
    std::string text = status.err_msg ? status.err_msg : "unknown error";
    if (status.func) text = std::string(status.func) + ": " + text;
    if (PyStatus_IsExit(status)) text += " (exit code " + std::to_string(status.exitcode) + ")";
    return text;
}

// C extension modules (math, _ctypes, NumPy ...) do not link libpython: they expect its symbols
// to be global. The host opened this plugin, and libpython with it, RTLD_LOCAL; promote libpython.
void make_libpython_global() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&Py_InitializeFromConfig), &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

std::string start() {
    const std::string exe = python_executable();
    struct stat st {};
    if (::stat(exe.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "libspl_python: cannot start Python " + describe_python() + ": no such file";
    if (Py_IsInitialized()) return ""; // the host, or another plugin, embeds Python already: share it
    make_libpython_global();

    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    config.buffered_stdio = 0; // print() reaches the terminal in order with the host's output
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, exe.c_str());
    if (!PyStatus_Exception(status)) status = PyConfig_SetBytesString(&config, &config.executable, exe.c_str());
    char empty[] = "";
    char* argv[] = {empty};
    if (!PyStatus_Exception(status)) status = PyConfig_SetBytesArgv(&config, 1, argv);
    if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status))
        return "libspl_python: Python " + describe_python() + " failed to start: " + status_text(status);
    serve_handed_calls_here(); // this thread, which started Python, runs the Simple calls of Python's threads
    install_keyboard_interrupt();
    PyEval_SaveThread(); // the GIL is taken per call (Gil)
    return "";
}

} // namespace

std::string python_executable() {
    return from_environment() ? std::string(std::getenv("SPL_PYTHON")) : std::string(SPL_PYTHON_DEFAULT);
}

void ensure_started() {
    StartState& s = state();
    std::call_once(s.once, [&] { s.failure = start(); });
    if (!s.failure.empty()) throw PythonUnavailable(s.failure);
}

Gil::Gil() {
    ensure_started();
    release_dropped_functions(); // first: it may run Simple code that calls this plugin
    std::fflush(stdout);
    std::fflush(stderr);
    std::cout.flush();
    ResultArena::current().reset();
    state_ = PyGILState_Ensure();
    in_python_.emplace();
    run_handed_calls(); // Simple calls that Python threads handed over while Simple ran
}

Gil::~Gil() {
    in_python_.reset();
    PyGILState_Release(state_);
}

PyObject* main_globals() {
    PyObject* main = PyImport_AddModule("__main__"); // borrowed
    if (!main) raise_python_error();
    return PyModule_GetDict(main);
}

} // namespace spl::python
