// doctor.h — `splrun doctor`: what this host would load and whether it fits together.
//
// Prints the library tree and the plugin it would use, their versions, the
// LibTorch the plugin loads (version and file), whether CUDA is available and
// why not, and every mismatch between lib.torch's `extern fn` declarations and
// the plugin's registrations — each problem with what to do about it, in the
// manner of R torch's install check and torch.utils.collect_env.
#pragma once

#include "eval/interpreter.h"

namespace spl {

// 0 when nothing is wrong, 1 when a problem was found.
int run_doctor(const HostOptions& options);

} // namespace spl
