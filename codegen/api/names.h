// Layer 2 (API): the names an operator and its parameters get on each side.
#pragma once

#include "model/schema.h"

#include <string>

namespace codegen::api {

// "add" + "Tensor" -> "rt_torch_add_Tensor"; the same scheme as at::_ops
// struct names ("add_" + "Tensor" -> add__Tensor), which C++ keeps unique.
std::string entry_point_name(const FunctionSchema& schema);
// The word adapter of an entry point (runtime_plugin/spl_plugin.h: SPL_WORD_PREFIX + name).
std::string word_symbol(const std::string& entry_point);
// The registration table's SplFunction object of an entry point (registry.cpp), which its
// boxed thunk and word adapter refer to by name.
std::string registry_entry_name(const std::string& entry_point);
// The at::_ops struct: "add_Tensor", "add", "__and___Tensor".
std::string ops_struct_name(const FunctionSchema& schema);
// A schema argument name that is safe as a C++ identifier.
std::string c_param_name(const std::string& name);
// A schema argument name that is safe as a Simple parameter name.
std::string simple_param_name(const std::string& name);

} // namespace codegen::api

namespace codegen::api {
// The per-operator header that declares at::_ops::<struct>, as torchgen
// names it: the operator's root name, without in-place `_`, dunder
// underscores or a `_functional` suffix ("__iand__" -> "ATen/ops/and_ops.h").
std::string ops_header(const FunctionSchema& schema);
} // namespace codegen::api
