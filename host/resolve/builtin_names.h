// builtin_names.h — the names the resolver binds to the host's own functions and methods.
//
// The tables themselves are the interpreter's (eval/builtins.cpp, eval/methods.cpp), a later
// stage: the resolver is handed them through this interface (eval's builtin_names()) and only
// asks, once per name or call site, which entry a name is.
#pragma once

#include <string_view>

namespace spl {

class BuiltinNames {
public:
    // Index into the interpreter's table of built-in functions, or -1.
    virtual int function_index(std::string_view name) const = 0;
    // The id of a built-in method name (stored at each call site), or -1 when no built-in
    // type has a method of that name.
    virtual int method_id(std::string_view name) const = 0;

protected:
    ~BuiltinNames() = default;
};

} // namespace spl
