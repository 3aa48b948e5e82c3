// attr_hooks.cpp — which names a class's get_attr / set_attr answer.
#include "eval/attr_hooks.h"

namespace spl {

bool is_hook_name(std::string_view name) {
    static constexpr std::string_view kHooks[] = {
        "get_attr", "set_attr", "call", "get_item", "set_item", "to_string", "format",
        "len",      "contains", "iter", "next",     "drop",     "__enter__", "__exit__",
    };
    for (std::string_view hook : kHooks)
        if (name == hook) return true;
    // Python's operator names (`__add__`, `__eq__`, ...): the host calls them for `a + b`, so a class
    // without them is one without the operator, never a name for get_attr.
    if (name.size() > 4 && name.substr(0, 2) == "__")
        for (size_t i = 0; i < static_cast<size_t>(Op::Count); ++i)
            if (const char* python_name = op_dunder_name(static_cast<Op>(i)); python_name && name == python_name)
                return true;
    return false;
}

const Value* attr_getter(const ClassObj& cls, const std::string& name) {
    // A static method is the class's own name: calling it on an instance keeps its error.
    if (cls.get_attr.is_nil() || is_hook_name(name) || cls.statics.count(name)) return nullptr;
    return &cls.get_attr;
}

const Value* attr_setter(const ClassObj& cls, const std::string& name) {
    if (cls.set_attr.is_nil() || is_hook_name(name)) return nullptr;
    return &cls.set_attr;
}

} // namespace spl
