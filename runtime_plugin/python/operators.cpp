// Operators: the binary and unary arithmetic of Python's number protocol, rich comparisons, truth.
#include "python/convert.h"
#include "python/objects.h"

#include "abi/error_guard.h"
#include "abi/extra_registration.h"

#include <cstring>
#include <string>

namespace spl::python {
namespace {

using Binary = PyObject* (*)(PyObject*, PyObject*);

PyObject* power(PyObject* a, PyObject* b) { return PyNumber_Power(a, b, Py_None); }

struct Operator {
    const char* name;
    Binary binary;  // an arithmetic operator, or
    int comparison; // Py_LT ... for a comparison (binary is null)
};

// Python's operator names (the `operator` module's): add, sub, mul, truediv, floordiv, mod,
// pow, matmul, and lt, le, eq, ne, gt, ge.
constexpr Operator kOperators[] = {
    {"add", PyNumber_Add, 0},
    {"sub", PyNumber_Subtract, 0},
    {"mul", PyNumber_Multiply, 0},
    {"truediv", PyNumber_TrueDivide, 0},
    {"floordiv", PyNumber_FloorDivide, 0},
    {"mod", PyNumber_Remainder, 0},
    {"pow", power, 0},
    {"matmul", PyNumber_MatrixMultiply, 0},
    {"lt", nullptr, Py_LT},
    {"le", nullptr, Py_LE},
    {"eq", nullptr, Py_EQ},
    {"ne", nullptr, Py_NE},
    {"gt", nullptr, Py_GT},
    {"ge", nullptr, Py_GE},
};

const Operator& find(const char* name) {
    for (const Operator& op : kOperators)
        if (std::strcmp(op.name, name) == 0) return op;
    throw SplError(std::string("no Python operator '") + name +
                   "' (add, sub, mul, truediv, floordiv, mod, pow, matmul, lt, le, eq, ne, gt, ge)");
}

using Unary = PyObject* (*)(PyObject*);

// The unary operators, by the `operator` module's names: -a, +a, abs(a), ~a.
constexpr struct {
    const char* name;
    Unary unary;
} kUnaryOperators[] = {
    {"neg", PyNumber_Negative}, {"pos", PyNumber_Positive}, {"abs", PyNumber_Absolute}, {"invert", PyNumber_Invert}};

Unary find_unary(const char* name) {
    for (const auto& op : kUnaryOperators)
        if (std::strcmp(op.name, name) == 0) return op.unary;
    throw SplError(std::string("no Python unary operator '") + name + "' (neg, pos, abs, invert)");
}

} // namespace
} // namespace spl::python

extern "C" {

// a OP b, as Python computes it (the reflected method of b included); both operands are trees
// (convert.h), so that `1 + obj` is add(1, [obj]); a result.
SPL_TORCH_EXPORT SplValue rt_python_binary(const char* op, SplValue a, SplValue b) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        const spl::python::Operator& o = spl::python::find(op);
        spl::python::Ref left(spl::python::from_tree(a, "a"));
        spl::python::Ref right(spl::python::from_tree(b, "b"));
        return spl::python::result_of_call(o.binary ? o.binary(left.get(), right.get())
                                                    : PyObject_RichCompare(left.get(), right.get(), o.comparison));
    });
}

// OP a (neg, pos, abs, invert), as Python computes it; `a` is a tree; a result.
SPL_TORCH_EXPORT SplValue rt_python_unary(const char* op, SplValue a) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::Unary unary = spl::python::find_unary(op);
        spl::python::Ref operand(spl::python::from_tree(a, "a"));
        return spl::python::result_of_call(unary(operand.get()));
    });
}

// bool(obj).
SPL_TORCH_EXPORT bool rt_python_truth(int64_t h) {
    return spl::guarded<bool>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::checked(PyObject_IsTrue(spl::python::ObjectTable::instance().get(h, "object"))) == 1;
    });
}

// a is b.
SPL_TORCH_EXPORT bool rt_python_is(int64_t a, int64_t b) {
    return spl::guarded<bool>(__func__, [&] {
        spl::python::Gil gil;
        const auto& table = spl::python::ObjectTable::instance();
        return table.get(a, "a") == table.get(b, "b");
    });
}

} // extern "C"

SPL_EXTRA(rt_python_binary, "op", "a", "b")
SPL_EXTRA(rt_python_unary, "op", "a")
SPL_EXTRA(rt_python_truth, "h")
SPL_EXTRA(rt_python_is, "a", "b")
