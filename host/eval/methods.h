// methods.h — methods of the built-in types: text, arrays, tuples, dicts,
// numbers, ranges, Option/Result values and spec expectations.
#pragma once

#include <string>
#include <string_view>

#include "eval/interpreter.h"

namespace spl {

// The id of a built-in method name (looked up once per call site by the
// resolver), or -1 when no built-in type has a method of that name.
int find_builtin_method(std::string_view name);

Value call_builtin_method(Interpreter& in, const Value& receiver, int id, const std::string& name, ArgList& args,
                          SourceLoc loc);

} // namespace spl
