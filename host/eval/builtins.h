// builtins.h — functions every module sees without importing them
// (print, str, len, Some, Ok, ..., and the SSpec functions).
#pragma once

#include <string_view>
#include <vector>

#include "resolve/builtin_names.h"
#include "resolve/objects.h"

namespace spl {

// The table, in the order the resolver numbers builtins by.
const std::vector<BuiltinDef>& builtin_table();
// A name's index in the table, or -1.
int find_builtin(std::string_view name);
// The tables' names as the resolver asks for them (find_builtin, find_builtin_method).
const BuiltinNames& builtin_names();

// Whether `def` takes these arguments: their number, names, and kinds where
// the builtin declares them (numbers_only). What decides whether a call
// refused by a star-imported function of the same name falls back to it.
bool builtin_accepts(const BuiltinDef& def, const ArgList& args);

// Appended to the table by sspec.cpp.
void add_spec_builtins(std::vector<BuiltinDef>& table);

} // namespace spl
