// builtins.h — functions every module sees without importing them
// (print, str, len, Some, Ok, ..., and the SSpec functions).
#pragma once

#include <string_view>
#include <vector>

#include "objects.h"

namespace spl {

// The table, in the order the resolver numbers builtins by.
const std::vector<BuiltinDef>& builtin_table();
// Index into builtin_table(), or -1.
int find_builtin(std::string_view name);

// Appended to the table by sspec.cpp.
void add_spec_builtins(std::vector<BuiltinDef>& table);

} // namespace spl
