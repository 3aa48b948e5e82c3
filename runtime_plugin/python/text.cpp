// An object as text: repr() and str().
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

extern "C" {

// repr(obj).
SPL_TORCH_EXPORT const char* rt_python_repr(int64_t h) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Ref text =
            spl::python::owned(PyObject_Repr(spl::python::ObjectTable::instance().get(h, "object")));
        return spl::python::text_of(text.get());
    });
}

// str(obj).
SPL_TORCH_EXPORT const char* rt_python_str(int64_t h) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Ref text = spl::python::owned(PyObject_Str(spl::python::ObjectTable::instance().get(h, "object")));
        return spl::python::text_of(text.get());
    });
}

} // extern "C"

SPL_EXTRA(rt_python_repr, "h")
SPL_EXTRA(rt_python_str, "h")
