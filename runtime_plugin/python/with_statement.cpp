// `with obj:` for a Python object (PyObject's __enter__ and __exit__ in lib.python): Python's own
// with statement runs it, inside a generator the plugin keeps from __enter__ to __exit__, so that
// the lookup of type(obj).__enter__ / __exit__, the error for an object that is no context
// manager and the bound __exit__ kept while the block runs are exactly Python's.
//
// The host calls __exit__ with no arguments, whether the block ended normally or by an error
// (Simple errors are no exception objects), so Python's __exit__ gets (None, None, None) either
// way and cannot suppress a Simple error (README's lib.python section).
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

#include <unordered_map>
#include <vector>

namespace spl::python {
namespace {

constexpr const char* kEnteredCode = "def entered(manager):\n"
                                     "    with manager as value:\n"
                                     "        yield value\n";

// The generator function `entered` (borrowed; compiled once, kept for the process).
PyObject* entered_function() {
    static PyObject* function = [] {
        Ref code = owned(Py_CompileString(kEnteredCode, "<lib.python with>", Py_file_input));
        Ref globals = owned(PyDict_New());
        checked(PyDict_SetItemString(globals.get(), "__builtins__", PyEval_GetBuiltins()));
        owned(PyEval_EvalCode(code.get(), globals.get(), globals.get()));
        return Py_NewRef(PyDict_GetItemString(globals.get(), "entered")); // borrowed from globals, kept
    }();
    return function;
}

// The with statements in progress per PyObject handle, innermost last (the same object may be
// entered again inside its own block). Never destroyed: Python is never finalized either.
std::unordered_map<int64_t, std::vector<PyObject*>>& in_progress() {
    static auto* statements = new std::unordered_map<int64_t, std::vector<PyObject*>>();
    return *statements;
}

} // namespace
} // namespace spl::python

extern "C" {

// `with obj as x`: Python enters obj; a result (convert.h), what __enter__ returned.
SPL_TORCH_EXPORT SplValue rt_python_with_enter(int64_t h) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Ref generator =
            spl::python::owned(PyObject_CallOneArg(spl::python::entered_function(), spl::python::object(h)));
        PyObject* value = PyIter_Next(generator.get());
        if (!value) spl::python::raise_python_error(); // not a context manager, or __enter__ failed
        spl::python::in_progress()[h].push_back(generator.release());
        return spl::python::result_of(value);
    });
}

// The end of obj's innermost with block: Python's __exit__(None, None, None). Without a with in
// progress (obj.__exit__() written out), type(obj).__exit__(obj, None, None, None) directly.
SPL_TORCH_EXPORT void rt_python_with_exit(int64_t h) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* manager = spl::python::object(h);
        auto& statements = spl::python::in_progress();
        auto found = statements.find(h);
        if (found == statements.end()) {
            spl::python::owned(PyObject_CallMethod(manager, "__exit__", "OOO", Py_None, Py_None, Py_None));
            return;
        }
        spl::python::Ref generator(found->second.back());
        found->second.pop_back();
        if (found->second.empty()) statements.erase(found);
        PyObject* more = PyIter_Next(generator.get()); // runs __exit__; the generator then ends
        Py_XDECREF(more);
        if (PyErr_Occurred()) spl::python::raise_python_error();
    });
}

} // extern "C"

SPL_EXTRA(rt_python_with_enter, "h")
SPL_EXTRA(rt_python_with_exit, "h")
