// Python exceptions as messages (traceback.format_exception's text), and this plugin's
// library_exception_text (abi/error_guard.h): the torch plugin's knows c10::Error, this one
// knows nothing of LibTorch.
#include "python/errors.h"

#include "abi/error_guard.h"

namespace spl::python {
namespace {

// "".join(traceback.format_exception(type, value, tb)), or of format_exception_only(type, value)
// when `tb` is "only"; "" when that fails (it leaves no exception set).
std::string formatted(PyObject* type, PyObject* value, PyObject* tb, bool only) {
    std::string text;
    PyObject* module = PyImport_ImportModule("traceback");
    PyObject* v = value ? value : Py_None;
    PyObject* lines = !module ? nullptr
                      : only  ? PyObject_CallMethod(module, "format_exception_only", "OO", type, v)
                              : PyObject_CallMethod(module, "format_exception", "OOO", type, v, tb ? tb : Py_None);
    PyObject* empty = lines ? PyUnicode_FromString("") : nullptr;
    PyObject* joined = empty ? PyUnicode_Join(empty, lines) : nullptr;
    const char* utf8 = joined ? PyUnicode_AsUTF8(joined) : nullptr;
    if (utf8) text = utf8;
    Py_XDECREF(joined);
    Py_XDECREF(empty);
    Py_XDECREF(lines);
    Py_XDECREF(module);
    PyErr_Clear();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

} // namespace

void raise_python_error() {
    PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
    PyErr_Fetch(&type, &value, &tb);
    if (!type) throw PythonError("a Python call failed without setting an exception");
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    std::string headline = formatted(type, value, nullptr, true);
    // format_exception_only ends with the "Type: message" line (a SyntaxError's location comes first).
    if (const size_t last = headline.rfind('\n'); last != std::string::npos) headline = headline.substr(last + 1);
    std::string full = formatted(type, value, tb, false);
    if (headline.empty()) headline = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    // Without a traceback (an error raised by the C API itself, say a missing attribute) Python's
    // report is the headline alone.
    throw PythonError(full.empty() || full == headline ? headline : headline + "\n" + full);
}

} // namespace spl::python

namespace spl {

// Python's own report (PythonError), or why Python is unavailable.
std::string library_exception_text(const std::exception& e) noexcept { return e.what(); }

} // namespace spl
