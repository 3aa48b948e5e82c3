// Anomaly detection's forward places: while a trace is on (rt_torch_trace_forward_ops), the
// place in the host's program of each forward operation that makes an autograd node, so that
// an error in backward can name where the failing node came from, as PyTorch prints the
// forward call's traceback.
#pragma once

#include <string>

namespace spl {

// "Error detected in DivBackward0. The forward call that caused the error: train.spl:12:9" for
// the backward node that ran last on this thread, when a trace knows its forward place; else "".
std::string forward_place_note();

// Runs `backward`; an error it raises gets forward_place_note() added on a line of its own.
template <class F>
void with_forward_place(F&& backward);

} // namespace spl

#include "extras/autograd/anomaly_trace_impl.h"
