// Simple functions as Python callables (callables.h): the SimpleFunction type, its call (the
// arguments as results, the GIL released while Simple runs, a Simple error raised as a Python
// RuntimeError) and its deallocation (the host callable released at the next entry point).
#include "python/callables.h"

#include "abi/boxed_values.h"
#include "abi/error_guard.h"
#include "abi/host_callable.h"
#include "abi/extra_registration.h"
#include "python/convert.h"
#include "python/objects.h"
#include "python/thread_handoff.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace spl::python {
namespace {

struct SimpleFunctionObject {
    PyObject ob_base;       // PyObject_HEAD
    HostCallable* callable; // owned; moved to the dropped list when Python frees it
    PyObject* name;         // str: "<fn add1>", what repr and errors show
};

std::atomic<int64_t> g_live{0};

// Host callables Python freed, released at the next entry point (callables.h). Deallocation
// holds the GIL, the release does not, so a mutex of its own.
std::mutex& dropped_mutex() {
    static std::mutex* m = new std::mutex(); // leaked: Python (and its deallocations) outlives statics
    return *m;
}
std::vector<HostCallable*>& dropped() {
    static auto* list = new std::vector<HostCallable*>();
    return *list;
}

std::string name_of(PyObject* self) {
    const char* utf8 = PyUnicode_AsUTF8(reinterpret_cast<SimpleFunctionObject*>(self)->name);
    if (!utf8) {
        PyErr_Clear();
        return "a Simple function";
    }
    return std::string("the Simple function ") + utf8;
}

void simple_function_dealloc(PyObject* self) {
    auto* f = reinterpret_cast<SimpleFunctionObject*>(self);
    if (f->callable) {
        std::lock_guard<std::mutex> lock(dropped_mutex());
        dropped().push_back(f->callable);
        f->callable = nullptr;
    }
    Py_XDECREF(f->name);
    PyTypeObject* type = Py_TYPE(self);
    type->tp_free(self);
    Py_DECREF(type); // a heap type: each instance holds a reference to it
    --g_live;
}

// "<fn add1>" -> "fn add1", "<method C.m>" -> "method C.m"
std::string bare_name(PyObject* self) {
    const char* utf8 = PyUnicode_AsUTF8(reinterpret_cast<SimpleFunctionObject*>(self)->name);
    if (!utf8) {
        PyErr_Clear();
        return "fn";
    }
    std::string text = utf8;
    if (text.size() > 2 && text.front() == '<' && text.back() == '>') text = text.substr(1, text.size() - 2);
    return text;
}

PyObject* simple_function_repr(PyObject* self) {
    return PyUnicode_FromString(("<Simple " + bare_name(self) + ">").c_str());
}

// The arguments of one call as results (convert.h), each a new handle the adapter owns once
// it runs; released again when the call fails before reaching it.
class CallArguments {
public:
    ~CallArguments() {
        if (handed_over_) return;
        for (int64_t h : handles_) ObjectTable::instance().release(h);
    }
    SplValue add(PyObject* borrowed) {
        Py_INCREF(borrowed);
        SplValue v = result_of(borrowed);
        // [h] is a PyObject handle of this plugin's (a tensor's ["tensor", h] is lib.torch's)
        if (v.tag == SPL_ARRAY && v.as.array.len == 1) handles_.push_back(v.as.array.items[0].as.i);
        return v;
    }
    void handed_over() { handed_over_ = true; }

private:
    std::vector<int64_t> handles_;
    bool handed_over_ = false;
};

// Restores the calling thread's error flag: a failure inside the Simple function (a nested
// lib.python call that failed) belongs to that function, not to the entry point that called
// Python, which may catch the RuntimeError and go on.
class KeepErrorFlag {
public:
    KeepErrorFlag() : saved_(t_error_pending) {}
    ~KeepErrorFlag() { t_error_pending = saved_; }

private:
    bool saved_;
};

// The call on the interpreter thread (simple_function_call hands it there from any other).
PyObject* call_here(PyObject* self, PyObject* args, PyObject* kwargs) {
    auto* f = reinterpret_cast<SimpleFunctionObject*>(self);
    try {
        CallArguments handles;
        const Py_ssize_t n = PyTuple_GET_SIZE(args);
        std::vector<SplValue> positional(static_cast<size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) positional[i] = handles.add(PyTuple_GET_ITEM(args, i));
        std::vector<SplValue> names, values;
        if (kwargs) {
            PyObject *key = nullptr, *value = nullptr;
            Py_ssize_t pos = 0;
            while (PyDict_Next(kwargs, &pos, &key, &value)) {
                names.push_back(v_text(text_of(key)));
                values.push_back(handles.add(value));
            }
        }
        const SplValue argv[3] = {v_array(positional.data(), n),
                                  v_array(names.data(), static_cast<int64_t>(names.size())),
                                  v_array(values.data(), static_cast<int64_t>(values.size()))};
        SplValue result{};
        {
            KeepErrorFlag keep;
            OutOfPython simple_runs; // no wake signal while Simple code runs
            // Simple code runs without the GIL (pybind11's gil_scoped_release): Python threads go
            // on meanwhile, and the plugin's entry points it calls take the GIL again (Gil).
            PyThreadState* saved = PyEval_SaveThread();
            handles.handed_over(); // the host runs the adapter, which owns them now
            try {
                result = f->callable->call(argv, 3, "a Simple function called by Python");
            } catch (...) {
                PyEval_RestoreThread(saved);
                throw;
            }
            PyEval_RestoreThread(saved);
        }
        if (result.tag != SPL_I64)
            throw SplError(name_of(self) + ": lib.python's adapter gave back " + tag_name(result.tag) +
                           " where a PyObject handle was expected");
        ObjectTable& table = ObjectTable::instance();
        PyObject* out = table.get(result.as.i, "the Simple function's result");
        Py_INCREF(out);
        table.release(result.as.i);
        return out;
    } catch (...) {
        // A Python exception while converting the arguments (Python's own, described by its text
        // only: raise_python_error cleared it), the Simple error (its message, traceback
        // included) or the plugin's own: raised in Python as a RuntimeError.
        PyErr_SetString(PyExc_RuntimeError, current_exception_text().c_str());
    }
    return nullptr;
}

PyObject* simple_function_call(PyObject* self, PyObject* args, PyObject* kwargs) {
    auto* f = reinterpret_cast<SimpleFunctionObject*>(self);
    if (f->callable->callable_here()) return call_here(self, args, kwargs);
    return call_on_interpreter_thread(call_here, self, args, kwargs);
}

PyObject* simple_function_name(PyObject* self, void*) {
    // "fn add1" -> "add1", "method C.m" -> "C.m"
    std::string text = bare_name(self);
    if (const size_t space = text.find(' '); space != std::string::npos) text = text.substr(space + 1);
    return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
}

PyGetSetDef simple_function_getset[] = {
    {"__name__", simple_function_name, nullptr, "the Simple function's name", nullptr},
    {"__qualname__", simple_function_name, nullptr, "the Simple function's name", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject* simple_function_type() {
    static PyTypeObject* type = nullptr; // lives as long as Python, which is never finalized
    if (type) return type;
    static char doc[] = "A Simple function, closure or bound method passed to Python by lib.python. Calling it "
                        "runs the Simple code on the Simple interpreter's thread (called on another thread, it waits "
                        "for the interpreter thread to run it); a Simple error is raised as a RuntimeError with the "
                        "Simple message.";
    static PyType_Slot slots[] = {
        {Py_tp_dealloc, reinterpret_cast<void*>(&simple_function_dealloc)},
        {Py_tp_repr, reinterpret_cast<void*>(&simple_function_repr)},
        {Py_tp_call, reinterpret_cast<void*>(&simple_function_call)},
        {Py_tp_getset, simple_function_getset},
        {Py_tp_doc, doc},
        {0, nullptr},
    };
    static PyType_Spec spec = {"simple.SimpleFunction", sizeof(SimpleFunctionObject), 0, Py_TPFLAGS_DEFAULT, slots};
    type = reinterpret_cast<PyTypeObject*>(checked(PyType_FromSpec(&spec)));
    return type;
}

} // namespace

PyObject* simple_function(const SplValue& adapter, const SplValue& name, const char* what) {
    if (name.tag != SPL_TEXT || !name.as.text.ptr)
        throw SplError(std::string(what) + ": not a value lib.python encodes (a callable's name must be a text)");
    auto callable = std::make_unique<HostCallable>(adapter, what);
    Ref text = owned(PyUnicode_FromStringAndSize(name.as.text.ptr, static_cast<Py_ssize_t>(name.as.text.len)));
    PyTypeObject* type = simple_function_type();
    auto* f = PyObject_New(SimpleFunctionObject, type);
    if (!f) raise_python_error();
    ++g_live;
    f->callable = callable.release();
    f->name = text.release();
    return reinterpret_cast<PyObject*>(f);
}

void release_dropped_functions() noexcept {
    std::vector<HostCallable*> doomed;
    {
        std::lock_guard<std::mutex> lock(dropped_mutex());
        if (dropped().empty()) return;
        doomed.swap(dropped());
    }
    for (HostCallable* c : doomed) delete c; // may run Simple code (a drop), which may call this plugin
}

int64_t live_simple_functions() noexcept { return g_live.load(); }

} // namespace spl::python

extern "C" {

// How many Simple functions Python holds now (SimpleFunction objects alive), for leak tests.
SPL_TORCH_EXPORT int64_t rt_python_live_functions(void) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::live_simple_functions();
    });
}

} // extern "C"

SPL_EXTRA(rt_python_live_functions)
