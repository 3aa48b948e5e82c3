// The handle-table side of lib.torch.jit's modules (script_module.cpp), shared with the tracer
// (trace.cpp): a torch::jit::Module kept in the handle table.
#pragma once

#include "spl_plugin.h"

#include <torch/csrc/jit/api/module.h>

#include <cstdint>
#include <string>

namespace spl::jit {

// The module a handle names (an error naming `module` for any other handle).
torch::jit::Module& module_of(int64_t handle);
// A new handle holding `m`.
int64_t new_module(torch::jit::Module m);

} // namespace spl::jit
