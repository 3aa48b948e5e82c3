// builtin_names.h — the names the resolver binds to the host's own functions and methods.
//
// The tables themselves are the interpreter's (eval/builtins.cpp, eval/methods.cpp); the
// resolver only asks, once per name or call site, which entry a name is.
#pragma once

#include <string_view>

namespace spl {

// Index into builtin_table() (eval/builtins.h), or -1.
int find_builtin(std::string_view name);

// The id of a built-in method name (looked up once per call site by the
// resolver), or -1 when no built-in type has a method of that name.
int find_builtin_method(std::string_view name);

} // namespace spl
