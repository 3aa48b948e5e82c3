// Values both ways between Simple (boxed SplValues) and Python.
//
// A Simple value crosses into Python as a *tree*, which lib.python encodes (python/object.spl):
//   nil, bool, i64, f64, text            None, bool, int, float, str
//   [h]                                  the object of the PyObject handle h (a new reference)
//   ["list", [t...]]  ["tuple", [t...]]  a list, a tuple of the items' trees
//   ["dict", [k...], [v...]]             a dict (keys and values are trees)
//   ["slice", [start, stop, step]]       a slice (a Simple `a[1:3]` key)
//   ["callable", f, name]                a SimpleFunction running the host callable f (lib.python's
//                                        adapter of a Simple function named name; callables.h)
// A Python object comes back as a *result*: None, bool, int (within i64), float and str as the
// Simple value, anything else as [h], a new handle; [] is the end of an iteration
// (rt_python_next). to_simple's *tree* of a Python object uses the same shapes as the way in,
// with [h] for what has no Simple form.
#pragma once

#include "python/errors.h"

#include "spl_plugin.h"

namespace spl::python {

// A new reference built from a tree; `what` names the argument in errors.
PyObject* from_tree(const SplValue& tree, const char* what);

// The result form of `owned` (the reference is consumed).
SplValue result_of(PyObject* owned);
// The result form of a call's return: checked (NULL raises the pending exception), consumed.
inline SplValue result_of_call(PyObject* owned_or_null) { return result_of(checked(owned_or_null)); }

// to_simple's tree of `object` (borrowed), recursively; new handles for the leaves without a
// Simple form (released again if the conversion fails).
SplValue tree_of(PyObject* object);

// A scalar's Simple value: None, bool, int (i64), float, str; anything else is an error.
SplValue scalar_of(PyObject* object);

// What the object is, in a word: "none", "bool", "int", "float", "str", "list", "tuple",
// "dict", "tensor" (a torch.Tensor, when torch is imported), "callable", "other".
const char* kind_of(PyObject* object);

// A str's UTF-8 text in the call's result arena.
const char* text_of(PyObject* str);

} // namespace spl::python
