// Python code from Simple: import a module, evaluate an expression, run statements. eval and
// exec share one namespace per process, the globals of `__main__`, as Python's own REPL does.
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

namespace spl::python {
namespace {

// The code object of `source`, compiled as "<string>" (the name Python's eval and exec give it).
Ref compiled(const char* source, int mode) { return owned(Py_CompileString(source, "<string>", mode)); }

} // namespace
} // namespace spl::python

extern "C" {

// importlib.import_module(name): the module itself ("os.path" gives os.path, not os).
SPL_TORCH_EXPORT int64_t rt_python_import(const char* name) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::ObjectTable::instance().insert(spl::python::checked(PyImport_ImportModule(name)));
    });
}

// eval(expr) in __main__'s globals; a result (convert.h).
SPL_TORCH_EXPORT SplValue rt_python_eval(const char* expr) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Ref code = spl::python::compiled(expr, Py_eval_input);
        PyObject* globals = spl::python::main_globals();
        return spl::python::result_of_call(PyEval_EvalCode(code.get(), globals, globals));
    });
}

// exec(code) in __main__'s globals: definitions stay there for later eval and exec calls.
SPL_TORCH_EXPORT void rt_python_exec(const char* code) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Ref compiled = spl::python::compiled(code, Py_file_input);
        PyObject* globals = spl::python::main_globals();
        spl::python::owned(PyEval_EvalCode(compiled.get(), globals, globals));
    });
}

// The Python in use: sys.version, starting it if needed (lib.python calls it when it loads, so
// that a Python that cannot start is an error at `use lib.python`).
SPL_TORCH_EXPORT const char* rt_python_version(void) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::python::Gil gil;
        return Py_GetVersion();
    });
}

// The Python executable in use or looked for (SPL_PYTHON, else the default built in).
SPL_TORCH_EXPORT const char* rt_python_executable(void) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::python::python_executable());
    });
}

} // extern "C"

SPL_EXTRA(rt_python_import, "name")
SPL_EXTRA(rt_python_eval, "expr")
SPL_EXTRA(rt_python_exec, "code")
SPL_EXTRA(rt_python_version)
SPL_EXTRA(rt_python_executable)
