// The container protocols: obj[key] (get, set, delete), len, `in`, and iteration.
#include "python/convert.h"
#include "python/objects.h"

#include "abi/boxed_values.h"
#include "abi/error_guard.h"
#include "abi/extra_registration.h"

extern "C" {

// obj[key]; `key` is a tree (a Simple slice and tuple of keys included); a result (convert.h).
SPL_TORCH_EXPORT SplValue rt_python_getitem(int64_t h, SplValue key) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref k(spl::python::from_tree(key, "key"));
        return spl::python::result_of_call(PyObject_GetItem(target, k.get()));
    });
}

// obj[key] = value (both trees).
SPL_TORCH_EXPORT void rt_python_setitem(int64_t h, SplValue key, SplValue value) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref k(spl::python::from_tree(key, "key"));
        spl::python::Ref v(spl::python::from_tree(value, "value"));
        spl::python::checked(PyObject_SetItem(target, k.get(), v.get()));
    });
}

// del obj[key].
SPL_TORCH_EXPORT void rt_python_delitem(int64_t h, SplValue key) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref k(spl::python::from_tree(key, "key"));
        spl::python::checked(PyObject_DelItem(target, k.get()));
    });
}

// len(obj).
SPL_TORCH_EXPORT int64_t rt_python_len(int64_t h) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        const Py_ssize_t n = PyObject_Length(spl::python::object(h));
        if (n < 0) spl::python::raise_python_error();
        return static_cast<int64_t>(n);
    });
}

// item in obj (`item` a tree).
SPL_TORCH_EXPORT bool rt_python_contains(int64_t h, SplValue item) {
    return spl::guarded<bool>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref v(spl::python::from_tree(item, "item"));
        return spl::python::checked(PySequence_Contains(target, v.get())) == 1;
    });
}

// iter(obj): a new handle for the iterator.
SPL_TORCH_EXPORT int64_t rt_python_iter(int64_t h) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::ObjectTable::instance().insert(
            spl::python::checked(PyObject_GetIter(spl::python::object(h))));
    });
}

// next(iterator): a result (convert.h), or [] when the iterator is exhausted (a None item is
// nil, which is why the end is told apart).
SPL_TORCH_EXPORT SplValue rt_python_next(int64_t h) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* iterator = spl::python::object(h);
        if (!PyIter_Check(iterator))
            throw spl::SplError(std::string("a Python ") + Py_TYPE(iterator)->tp_name + " is not an iterator");
        PyObject* item = PyIter_Next(iterator);
        if (item) return spl::python::result_of(item);
        if (PyErr_Occurred()) spl::python::raise_python_error();
        return spl::v_array(nullptr, 0);
    });
}

} // extern "C"

SPL_EXTRA(rt_python_getitem, "h", "key")
SPL_EXTRA(rt_python_setitem, "h", "key", "value")
SPL_EXTRA(rt_python_delitem, "h", "key")
SPL_EXTRA(rt_python_len, "h")
SPL_EXTRA(rt_python_contains, "h", "item")
SPL_EXTRA(rt_python_iter, "h")
SPL_EXTRA(rt_python_next, "h")
