// Calling back into the host (spl_plugin.h, "Host callbacks"): the host's table and a host
// callable held by a plugin, with the thread rule that keeps every call on the host's own
// thread. ATen-free: compiled into libspl_torch and libspl_python alike (core/host_callbacks.h
// adds what only the torch plugin needs).
#pragma once

#include "spl_plugin.h"

#include <cstdint>
#include <thread>

namespace spl {

// The host's table, given once by spl_plugin_open (nullptr: the host offers none).
void set_host_callbacks(const SplHostCallbacks* callbacks) noexcept;
// Whether the host that opened the plugin gave it callbacks (a host that calls word adapters
// without opening it, as the real Simple runtime does, gave none).
bool host_callbacks_given() noexcept;

// A host callable kept past the call that passed it: retained when made, released when
// destroyed (on whatever thread destroys it; the ABI allows release from any thread).
class HostCallable {
public:
    // `value`: the SPL_CALLABLE argument that names it; `what` names the parameter in errors.
    // Throws SplError when the value is not a callable or the host offers no callbacks.
    HostCallable(const SplValue& value, const char* what);
    ~HostCallable();
    HostCallable(const HostCallable&) = delete;
    HostCallable& operator=(const HostCallable&) = delete;

    // Whether the calling thread may call it: the host's thread that passed it.
    bool callable_here() const noexcept { return std::this_thread::get_id() == thread_; }

    // Runs it with `args`, on the thread that passed it (any other thread: an SplError naming
    // `purpose`, nothing called). The result is the host's: valid until this thread's next
    // call into the host. A failure in the host is an SplError with the host's message.
    SplValue call(const SplValue* args, int32_t nargs, const char* purpose) const;

private:
    const SplHostCallbacks* host_;
    int64_t id_;
    std::thread::id thread_; // the host's thread that passed it
};

} // namespace spl
