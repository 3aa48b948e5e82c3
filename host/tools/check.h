// check.h — `splrun check PROGRAM.spl...`: the static checks (resolve/checks/checks.h) on each
// file, without running anything: each finding printed as `FILE:LINE:COL: warning: ...` on
// stdout, nothing for a clean program. The modules a file imports are found on `lib_roots`
// (as a run finds them) and parsed for their declarations, never run.
#pragma once

#include <string>
#include <vector>

namespace spl {

// 0 when every file parsed (warnings or not); 1 after a syntax error (printed to stderr as a run
// prints it); 2 when a file cannot be read.
int run_check(const std::vector<std::string>& files, const std::vector<std::string>& lib_roots);

} // namespace spl
