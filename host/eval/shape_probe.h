// shape_probe.h — `splrun check`'s own calls of a program's shape-typed functions.
//
// A run finds the shape bugs its data's sizes show. A bug hidden because two sizes happen to be
// equal (`x @ w` with w stored [out, in] and out == in; scores `x^T @ x` with T == D) shows once
// each symbol has a size of its own: every top-level function of the program whose parameters
// all have shape types is called once more, with a tensor of each parameter's shape, each symbol
// a different size (a symbol naming an integer constant of the program is that constant).
// Tensors are made by the parameter type's own `empty(sizes)` (lib.torch's `Tensor.empty`), so on
// the meta device while `splrun check` runs. A function whose sizes cannot all be chosen (a
// division that does not come out whole, a type with no `empty`) is not called.
#pragma once

#include <string>
#include <vector>

#include "base/diagnostics.h"

namespace spl {

class Interpreter;
struct ModuleObj;

struct ProbeFailure {
    ProgramError error;
    std::string sizes; // what the symbols were: "B = 96, T = 160"
};

// Calls each such function of `m` (the program's main module, already run); returns the errors the
// calls raised, in the order of the functions in the file.
std::vector<ProbeFailure> probe_shape_functions(Interpreter& in, const ModuleObj& m);

} // namespace spl
