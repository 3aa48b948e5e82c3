// methods.h — methods of the built-in types: text, arrays, tuples, dicts,
// numbers, ranges, Option/Result values and spec expectations.
#pragma once

#include <string>
#include <string_view>

#include "eval/interpreter.h"
#include "resolve/builtin_names.h"

namespace spl {

// A method name's id, which the resolver stores at each call site (resolve/builtin_names.h);
// -1 when no built-in type has a method of that name.
int find_builtin_method(std::string_view name);

Value call_builtin_method(Interpreter& in, const Value& receiver, int id, const std::string& name, ArgList& args,
                          SourceLoc loc);

// "array has no method `size`; use `len()`": the error for a method a value lacks, naming the
// host's method when the name is another language's for it (and the nil hint for a nil receiver).
std::string no_method_message(Interpreter& in, const Value& receiver, const std::string& name);

} // namespace spl
