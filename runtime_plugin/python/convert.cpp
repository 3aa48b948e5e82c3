// Trees -> Python objects, Python objects -> results, trees and scalars (convert.h); and the
// entry points that only convert: rt_python_new, rt_python_to_value, rt_python_to_tree,
// rt_python_kind.
#include "python/convert.h"

#include "abi/boxed_values.h"
#include "abi/error_guard.h"
#include "abi/extra_registration.h"
#include "python/callables.h"
#include "python/objects.h"
#include "python/tensors.h"

#include <cstring>
#include <string>
#include <vector>

namespace spl::python {
namespace {

// Deeper than this is a cycle (a list holding itself) or a mistake; either way an error, not a
// stack overflow.
constexpr int kMaxDepth = 500;

[[noreturn]] void malformed(const char* what, const std::string& why) {
    throw SplError(std::string(what) + ": not a value lib.python encodes (" + why + ")");
}

bool is_code(const SplValue& v, const char* code) { return v.tag == SPL_TEXT && std::strcmp(v.as.text.ptr, code) == 0; }

const SplArray& items_of(const SplValue& v, const char* what) {
    if (v.tag != SPL_ARRAY || v.as.array.len < 0 || (v.as.array.len > 0 && !v.as.array.items))
        malformed(what, "the items of a list, tuple or dict must be an array");
    return v.as.array;
}

PyObject* build(const SplValue& tree, const char* what, int depth);

PyObject* build_sequence(const SplArray& items, bool tuple, const char* what, int depth) {
    Ref out = owned(tuple ? PyTuple_New(items.len) : PyList_New(items.len));
    for (int64_t i = 0; i < items.len; ++i) {
        PyObject* item = build(items.items[i], what, depth + 1); // stolen below
        if (tuple)
            PyTuple_SET_ITEM(out.get(), i, item);
        else
            PyList_SET_ITEM(out.get(), i, item);
    }
    return out.release();
}

PyObject* build(const SplValue& tree, const char* what, int depth) {
    if (depth > kMaxDepth) malformed(what, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
    switch (tree.tag) {
    case SPL_NIL: Py_RETURN_NONE;
    case SPL_BOOL: return PyBool_FromLong(tree.as.b ? 1 : 0);
    case SPL_I64: return checked(PyLong_FromLongLong(tree.as.i));
    case SPL_F64: return checked(PyFloat_FromDouble(tree.as.f));
    case SPL_TEXT:
        if (!tree.as.text.ptr) malformed(what, "a text with a NULL pointer");
        return checked(PyUnicode_FromStringAndSize(tree.as.text.ptr, static_cast<Py_ssize_t>(tree.as.text.len)));
    case SPL_CALLABLE:
        malformed(what, "a function passed as it is: lib.python passes one as [\"callable\", adapter, name]");
    case SPL_ARRAY: break;
    default: malformed(what, std::string("a value tagged ") + tag_name(tree.tag));
    }
    const SplArray& a = items_of(tree, what);
    if (a.len == 1 && a.items[0].tag == SPL_I64) {
        PyObject* object = ObjectTable::instance().get(a.items[0].as.i, what);
        Py_INCREF(object);
        return object;
    }
    if (a.len == 2 && is_code(a.items[0], "list"))
        return build_sequence(items_of(a.items[1], what), false, what, depth);
    if (a.len == 2 && is_code(a.items[0], "tuple"))
        return build_sequence(items_of(a.items[1], what), true, what, depth);
    if (a.len == 3 && is_code(a.items[0], "dict")) {
        const SplArray& keys = items_of(a.items[1], what);
        const SplArray& values = items_of(a.items[2], what);
        if (keys.len != values.len) malformed(what, "a dict with as many keys as values");
        Ref out = owned(PyDict_New());
        for (int64_t i = 0; i < keys.len; ++i) {
            Ref key(build(keys.items[i], what, depth + 1));
            Ref value(build(values.items[i], what, depth + 1));
            checked(PyDict_SetItem(out.get(), key.get(), value.get()));
        }
        return out.release();
    }
    if (a.len == 3 && is_code(a.items[0], "callable") && a.items[1].tag == SPL_CALLABLE)
        return simple_function(a.items[1], a.items[2], what);
    if (a.len == 2 && is_code(a.items[0], "tensor") && a.items[1].tag == SPL_I64)
        return tensor_to_python(a.items[1].as.i);
    if (a.len == 2 && is_code(a.items[0], "slice")) {
        const SplArray& parts = items_of(a.items[1], what);
        if (parts.len != 3) malformed(what, "a slice of start, stop and step");
        Ref start(build(parts.items[0], what, depth + 1));
        Ref stop(build(parts.items[1], what, depth + 1));
        Ref step(build(parts.items[2], what, depth + 1));
        return checked(PySlice_New(start.get(), stop.get(), step.get()));
    }
    malformed(what, "an array of " + std::to_string(a.len) + " items");
}

// The Simple scalar of `object`, if it has one: true when `out` was set. An int outside i64
// has none (`overflow` says so).
bool scalar(PyObject* object, SplValue& out, bool& overflow) {
    overflow = false;
    if (object == Py_None) {
        out = v_nil();
    } else if (PyBool_Check(object)) {
        out = v_bool(object == Py_True);
    } else if (PyLong_Check(object)) {
        int over = 0;
        const long long value = PyLong_AsLongLongAndOverflow(object, &over);
        if (value == -1 && PyErr_Occurred()) raise_python_error();
        if (over != 0) {
            overflow = true;
            return false;
        }
        out = v_i64(value);
    } else if (PyFloat_Check(object)) {
        const double value = PyFloat_AsDouble(object);
        if (value == -1.0 && PyErr_Occurred()) raise_python_error();
        out = v_f64(value);
    } else if (PyUnicode_Check(object)) {
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(object, &size);
        if (!utf8) { // lone surrogates have no UTF-8 form: the str stays a PyObject
            PyErr_Clear();
            return false;
        }
        out = v_text(ResultArena::current().text(std::string(utf8, static_cast<size_t>(size))));
        out.as.text.len = static_cast<int64_t>(size); // NUL characters included
    } else {
        return false;
    }
    return true;
}

SplValue handle_value(PyObject* borrowed) {
    SplValue* one = ResultArena::current().values(1);
    one[0] = v_i64(ObjectTable::instance().insert_borrowed(borrowed));
    return v_array(one, 1);
}

// The handles a failed tree_of made, released when it fails.
class NewHandles {
public:
    ~NewHandles() {
        if (!done_)
            for (int64_t h : handles_) ObjectTable::instance().release(h);
    }
    SplValue add(PyObject* borrowed) {
        SplValue v = handle_value(borrowed);
        handles_.push_back(v.as.array.items[0].as.i);
        return v;
    }
    void keep() { done_ = true; }

private:
    std::vector<int64_t> handles_;
    bool done_ = false;
};

SplValue coded(const char* code, std::initializer_list<SplValue> parts) {
    SplValue* out = ResultArena::current().values(1 + parts.size());
    out[0] = v_text(code);
    size_t i = 1;
    for (const SplValue& p : parts) out[i++] = p;
    return v_array(out, static_cast<int64_t>(1 + parts.size()));
}

SplValue tree(PyObject* object, NewHandles& handles, int depth) {
    if (depth > kMaxDepth)
        throw SplError("to_simple: nested deeper than " + std::to_string(kMaxDepth) + " levels (a reference cycle?)");
    SplValue out;
    bool overflow = false;
    if (scalar(object, out, overflow)) return out;
    const bool list = PyList_Check(object), tuple = PyTuple_Check(object);
    if (list || tuple) {
        // Each item read through the checked API and held: converting one runs no Python code,
        // but the handles it makes are the table's, not the list's.
        const Py_ssize_t n = list ? PyList_GET_SIZE(object) : PyTuple_GET_SIZE(object);
        SplValue* items = ResultArena::current().values(static_cast<size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) {
            Ref item = owned(PySequence_GetItem(object, i));
            items[i] = tree(item.get(), handles, depth + 1);
        }
        return coded(list ? "list" : "tuple", {v_array(items, n)});
    }
    if (PyDict_Check(object)) {
        Ref pairs = owned(PyDict_Items(object)); // a list: safe against the dict changing
        const Py_ssize_t n = PyList_GET_SIZE(pairs.get());
        SplValue* keys = ResultArena::current().values(static_cast<size_t>(n));
        SplValue* values = ResultArena::current().values(static_cast<size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* pair = PyList_GET_ITEM(pairs.get(), i);
            keys[i] = tree(PyTuple_GET_ITEM(pair, 0), handles, depth + 1);
            values[i] = tree(PyTuple_GET_ITEM(pair, 1), handles, depth + 1);
        }
        return coded("dict", {v_array(keys, n), v_array(values, n)});
    }
    if (is_torch_tensor(object)) return coded("tensor", {v_i64(tensor_from_python(object))});
    return handles.add(object);
}

} // namespace

PyObject* from_tree(const SplValue& tree, const char* what) { return build(tree, what, 0); }

const char* text_of(PyObject* str) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(str, &size); // fails on lone surrogates
    if (!utf8) raise_python_error();
    return ResultArena::current().text(std::string(utf8, static_cast<size_t>(size)));
}

SplValue result_of(PyObject* owned_object) {
    Ref object(owned_object);
    SplValue out;
    bool overflow = false;
    if (scalar(object.get(), out, overflow)) return out;
    if (is_torch_tensor(object.get())) return coded("tensor", {v_i64(tensor_from_python(object.get()))});
    SplValue* one = ResultArena::current().values(1);
    one[0] = v_i64(ObjectTable::instance().insert(object.release()));
    return v_array(one, 1);
}

SplValue tree_of(PyObject* object) {
    NewHandles handles;
    SplValue out = tree(object, handles, 0);
    handles.keep();
    return out;
}

SplValue scalar_of(PyObject* object) {
    SplValue out;
    bool overflow = false;
    if (scalar(object, out, overflow)) return out;
    if (overflow) throw SplError("Python int too large to convert to i64");
    throw SplError(std::string("a Python ") + Py_TYPE(object)->tp_name +
                   " has no Simple scalar value (None, bool, int, float or str); use to_simple()");
}

const char* kind_of(PyObject* object) {
    if (object == Py_None) return "none";
    if (PyBool_Check(object)) return "bool";
    if (PyLong_Check(object)) return "int";
    if (PyFloat_Check(object)) return "float";
    if (PyUnicode_Check(object)) return "str";
    if (PyList_Check(object)) return "list";
    if (PyTuple_Check(object)) return "tuple";
    if (PyDict_Check(object)) return "dict";
    // A tensor only where torch is imported already: asking never imports it.
    if (PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch")) { // borrowed
        Ref tensor_type(PyObject_GetAttrString(torch, "Tensor"));
        const int is_tensor = tensor_type.get() ? PyObject_IsInstance(object, tensor_type.get()) : -1;
        if (is_tensor < 0) PyErr_Clear();
        if (is_tensor > 0) return "tensor";
    }
    return PyCallable_Check(object) ? "callable" : "other";
}

} // namespace spl::python

extern "C" {

// A new handle for a Simple value's tree (convert.h): py_object(), and the builders of lists,
// tuples and dicts from handles and scalars.
SPL_TORCH_EXPORT int64_t rt_python_new(SplValue value) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::ObjectTable::instance().insert(spl::python::from_tree(value, "value"));
    });
}

// The Simple scalar of a None, bool, int (within i64), float or str; anything else is an error.
SPL_TORCH_EXPORT SplValue rt_python_to_value(int64_t h) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::scalar_of(spl::python::ObjectTable::instance().get(h, "object"));
    });
}

// to_simple()'s tree of the object (convert.h).
SPL_TORCH_EXPORT SplValue rt_python_to_tree(int64_t h) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::tree_of(spl::python::ObjectTable::instance().get(h, "object"));
    });
}

// What the object is, in a word (convert.h, kind_of).
SPL_TORCH_EXPORT const char* rt_python_kind(int64_t h) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::kind_of(spl::python::ObjectTable::instance().get(h, "object"));
    });
}

} // extern "C"

SPL_EXTRA(rt_python_new, "value")
SPL_EXTRA(rt_python_to_value, "h")
SPL_EXTRA(rt_python_to_tree, "h")
SPL_EXTRA(rt_python_kind, "h")
