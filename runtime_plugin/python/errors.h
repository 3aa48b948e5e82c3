// Python exceptions -> the plugin's error messages: Python's own text, traceback included.
#pragma once

#include "python/interpreter.h"

#include <stdexcept>
#include <string>

namespace spl::python {

// A Python exception, as Python prints it: the exception line first (the headline a Simple
// error shows), then "Traceback (most recent call last):" and the rest of Python's report.
// Passed on as it is (not prefixed with the entry point's name).
class PythonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Python could not start (interpreter.h): every call fails with this message.
class PythonUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Takes the pending Python exception (one must be set; GIL held), clears it and throws it as a
// PythonError.
[[noreturn]] void raise_python_error();

// A new reference from the C API, or the pending exception thrown.
inline PyObject* checked(PyObject* result) {
    if (!result) raise_python_error();
    return result;
}
// A C API status (-1 on error), or the pending exception thrown.
inline int checked(int status) {
    if (status < 0) raise_python_error();
    return status;
}

// An owned reference, released when it goes.
class Ref {
public:
    Ref() = default;
    explicit Ref(PyObject* owned) : p_(owned) {}
    ~Ref() { Py_XDECREF(p_); }
    Ref(Ref&& other) noexcept : p_(other.release()) {}
    Ref& operator=(Ref&& other) noexcept {
        if (this != &other) {
            Py_XDECREF(p_);
            p_ = other.release();
        }
        return *this;
    }
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    PyObject* get() const noexcept { return p_; }
    PyObject* release() noexcept {
        PyObject* p = p_;
        p_ = nullptr;
        return p;
    }

private:
    PyObject* p_ = nullptr;
};

// checked(), owned.
inline Ref owned(PyObject* result) { return Ref(checked(result)); }

} // namespace spl::python
