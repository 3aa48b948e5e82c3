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
