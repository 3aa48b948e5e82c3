// Calling a Python object: positional arguments and keyword arguments, each a tree
// (convert.h), through the vectorcall protocol.
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

#include <string>
#include <vector>

namespace spl::python {
namespace {

// The items of an array argument; nil is none.
SplArray array_arg(const SplValue& v, const char* what) {
    if (v.tag == SPL_NIL) return SplArray{nullptr, 0};
    if (v.tag != SPL_ARRAY || v.as.array.len < 0 || (v.as.array.len > 0 && !v.as.array.items))
        throw SplError(std::string(what) + " must be an array, got " + tag_name(v.tag));
    return v.as.array;
}

// Holds the argument objects for one call.
class Arguments {
public:
    ~Arguments() {
        for (PyObject* o : objects_) Py_DECREF(o);
    }
    void add(const SplValue& tree, const std::string& what) { objects_.push_back(from_tree(tree, what.c_str())); }
    PyObject* const* data() const { return objects_.data(); }

private:
    std::vector<PyObject*> objects_;
};

SplValue call(int64_t callee, const SplValue& args, const SplValue& kw_names, const SplValue& kw_values) {
    PyObject* fn = ObjectTable::instance().get(callee, "callee");
    const SplArray positional = array_arg(args, "args");
    const SplArray names = array_arg(kw_names, "kw_names");
    const SplArray values = array_arg(kw_values, "kw_values");
    if (names.len != values.len)
        throw SplError("kw_names and kw_values differ in length (" + std::to_string(names.len) + " and " +
                       std::to_string(values.len) + ")");
    Arguments in;
    // Slot 0 is free for the callee to use (PY_VECTORCALL_ARGUMENTS_OFFSET).
    in.add(SplValue{SPL_NIL, {}}, "");
    for (int64_t i = 0; i < positional.len; ++i) in.add(positional.items[i], "argument " + std::to_string(i + 1));
    Ref kwnames;
    if (names.len > 0) {
        kwnames = owned(PyTuple_New(names.len));
        for (int64_t i = 0; i < names.len; ++i) {
            const SplValue& n = names.items[i];
            if (n.tag != SPL_TEXT || !n.as.text.ptr)
                throw SplError("kw_names: item " + std::to_string(i) + " is not a text");
            PyTuple_SET_ITEM(
                kwnames.get(), i,
                checked(PyUnicode_FromStringAndSize(n.as.text.ptr, static_cast<Py_ssize_t>(n.as.text.len))));
            in.add(values.items[i], std::string("argument '") + n.as.text.ptr + "'");
        }
    }
    const size_t nargs = static_cast<size_t>(positional.len) | PY_VECTORCALL_ARGUMENTS_OFFSET;
    return result_of_call(PyObject_Vectorcall(fn, in.data() + 1, nargs, kwnames.get()));
}

} // namespace
} // namespace spl::python

extern "C" {

// callee(*args, **dict(zip(kw_names, kw_values))); a result (convert.h). `args` and `kw_values`
// are arrays of trees (nil for none), `kw_names` an array of texts.
SPL_TORCH_EXPORT SplValue rt_python_call(int64_t callee, SplValue args, SplValue kw_names, SplValue kw_values) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::call(callee, args, kw_names, kw_values);
    });
}

} // extern "C"

SPL_EXTRA(rt_python_call, "callee", "args", "kw_names", "kw_values")
