// The operator hooks' method names (objects.h): each Op's own name and Python's.
#include "resolve/objects.h"

namespace spl {

const char* op_method_name(Op op) {
    static const char* const names[] = {
        "add",  "sub",  "mul",  "div",      "mod",      "pow",       "matmul", "radd", "rsub",
        "rmul", "rdiv", "rmod", "rpow",     "rmatmul",  "eq",        "ne",     "lt",   "le",
        "gt",   "ge",   "neg",  "get_item", "set_item", "to_string", "iter",   "next",
    };
    static_assert(sizeof names / sizeof *names == static_cast<size_t>(Op::Count), "one name per Op");
    return names[static_cast<size_t>(op)];
}

const char* op_dunder_name(Op op) {
    static const char* const names[] = {
        "__add__",  "__sub__",  "__mul__",  "__truediv__",  "__mod__",  "__pow__",  "__matmul__",
        "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rmod__", "__rpow__", "__rmatmul__",
        "__eq__",   "__ne__",   "__lt__",   "__le__",       "__gt__",   "__ge__",   "__neg__",
        nullptr,    nullptr,    nullptr,    nullptr,        nullptr, // get_item ... next: one name each
    };
    static_assert(sizeof names / sizeof *names == static_cast<size_t>(Op::Count), "one entry per Op");
    return names[static_cast<size_t>(op)];
}

} // namespace spl
