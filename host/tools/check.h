// check.h — `splrun check PROGRAM.spl...`: on each file, the static checks
// (resolve/checks/checks.h), then the shapes-only run (tools/shape_run.h). Each finding is
// printed on stdout, `FILE:LINE:COL: warning: ...` (static) or `FILE:LINE:COL: shape error: ...`;
// nothing for a clean program. For the static checks the modules a file imports are found on
// the library roots (as a run finds them) and parsed for their declarations; the shapes-only run
// loads them as a run does, with every tensor on the meta device, reading no data file.
#pragma once

#include <string>
#include <vector>

#include "eval/interpreter.h"

namespace spl {

// 0 when every file parsed and no shape error was found (warnings or not); 1 after a syntax error
// (printed to stderr as a run prints it) or a shape error; 2 when a file cannot be read.
// `unknown`: also list on stderr where each run stopped for want of data.
int run_check(const std::vector<std::string>& files, const HostOptions& options, bool unknown);

} // namespace spl
