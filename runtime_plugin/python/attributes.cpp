// Attributes: getattr / setattr / hasattr / delattr, and the type's name.
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

#include <string>

extern "C" {

// getattr(obj, name); a result (convert.h). A missing name is Python's AttributeError.
SPL_TORCH_EXPORT SplValue rt_python_getattr(int64_t h, const char* name) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::result_of_call(PyObject_GetAttrString(spl::python::object(h), name));
    });
}

// setattr(obj, name, value); `value` is a tree (convert.h).
SPL_TORCH_EXPORT void rt_python_setattr(int64_t h, const char* name, SplValue value) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref v(spl::python::from_tree(value, "value"));
        spl::python::checked(PyObject_SetAttrString(target, name, v.get()));
    });
}

// hasattr(obj, name): getattr succeeds (any exception but AttributeError is raised, as Python's).
SPL_TORCH_EXPORT bool rt_python_hasattr(int64_t h, const char* name) {
    return spl::guarded<bool>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* target = spl::python::object(h);
        spl::python::Ref key = spl::python::owned(PyUnicode_FromString(name));
        PyObject* found = PyObject_GetAttr(target, key.get());
        if (found) {
            Py_DECREF(found);
            return true;
        }
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) spl::python::raise_python_error();
        PyErr_Clear();
        return false;
    });
}

// delattr(obj, name).
SPL_TORCH_EXPORT void rt_python_delattr(int64_t h, const char* name) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::checked(PyObject_DelAttrString(spl::python::object(h), name));
    });
}

// The object's type, as Python names it for a user: "int", "list", "collections.OrderedDict",
// "torch.Tensor" (its module, then its qualified name; no module for the builtins).
SPL_TORCH_EXPORT const char* rt_python_type_name(int64_t h) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(spl::python::object(h)));
        spl::python::Ref qualname = spl::python::owned(PyObject_GetAttrString(type, "__qualname__"));
        spl::python::Ref module = spl::python::owned(PyObject_GetAttrString(type, "__module__"));
        std::string name = spl::python::text_of(qualname.get());
        if (PyUnicode_Check(module.get())) {
            const std::string m = spl::python::text_of(module.get());
            if (m != "builtins") name = m + "." + name;
        }
        return spl::ResultArena::current().text(name);
    });
}

} // extern "C"

SPL_EXTRA(rt_python_getattr, "h", "name")
SPL_EXTRA(rt_python_setattr, "h", "name", "value")
SPL_EXTRA(rt_python_hasattr, "h", "name")
SPL_EXTRA(rt_python_delattr, "h", "name")
SPL_EXTRA(rt_python_type_name, "h")
