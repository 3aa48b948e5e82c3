// with_forward_place, defined where its template is used.
#pragma once

#include "abi/error_guard.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace spl {

// While a trace knows the forward places, LibTorch's own note on a backward error (the C++
// stack of the forward call, printed as a warning) says nothing a Simple programmer can use:
// it is left out, and the error names the Simple line instead. Other warnings pass on.
std::unique_ptr<void, void (*)(void*)> quiet_cpp_forward_stacks();

template <class F>
void with_forward_place(F&& backward) {
    const auto quiet = quiet_cpp_forward_stacks();
    try {
        backward();
    } catch (...) {
        const std::string note = forward_place_note();
        if (note.empty()) throw;
        throw std::runtime_error(current_exception_text() + "\n" + note);
    }
}

} // namespace spl
