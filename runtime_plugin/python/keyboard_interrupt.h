// Ctrl-C (SIGINT) as Python has it while Python runs: a KeyboardInterrupt raised in the Python
// code the interpreter thread is running (a Simple runtime error naming it, at the user's line,
// when nothing catches it), as Python's own handler does; while Simple code runs, the host's
// disposition, the end of the process by SIGINT, as before lib.python was used.
#pragma once

namespace spl::python {

// Once, on the interpreter thread, right after Python starts there, GIL held: where the host
// leaves SIGINT at its default, Python's table gets its default_int_handler and the process
// gets a handler that chooses between the two. Elsewhere (a host or program with a handler of
// its own) nothing changes.
void install_keyboard_interrupt();

} // namespace spl::python
