// shape_run.h — `splrun check`'s run: the program run with every tensor a shape.
//
// The program runs as it would, with three differences: the plugin makes every tensor on
// LibTorch's meta device (SPL_TORCH_SHAPES_ONLY=1: sizes and dtypes, no data, so each operator's
// shape rule is LibTorch's own meta kernel), it opens no file, and nothing the program prints is
// written. Then each top-level function whose parameters all have shape types is called with a
// size of its own per symbol (eval/shape_probe.h). What is reported:
//   - a shape type that does not hold (eval/shape_checks.h);
//   - an error LibTorch raises (its shape checks, run by the meta kernels);
//   - an error lib.torch's own code raises (PyTorch's argument checks);
// each at the program's line, as `FILE:LINE:COL: shape error: MESSAGE`. Left unknown, and not
// reported: what needs the data (`.item()`, `nonzero`, a tensor in an `if`, a file read: the run
// stops there), and the program's own errors (a run reports them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/interpreter.h"

namespace spl {

struct ShapeFinding {
    std::string where; // "FILE:LINE:COL"
    uint32_t line = 0, col = 0;
    std::string message;
};

struct ShapeRunResult {
    std::vector<ShapeFinding> findings; // in file order, each once
    std::vector<std::string> unknown;   // why the run stopped early, when it did: "FILE:LINE:COL: ..."
};

// Runs `path` so (options: the library roots and plugin directories of a run).
ShapeRunResult run_for_shapes(const std::string& path, HostOptions options);

} // namespace spl
