// Calling back into the host (spl_plugin.h, "Host callbacks"): a host callable held by the
// plugin and the thread rule (abi/host_callable.h, shared with libspl_python), and what only
// the torch plugin needs: LibTorch's engine kept on the host's thread.
#pragma once

#include "abi/host_callable.h"

namespace spl {

// Runs the engine on the calling thread while it lives (LibTorch's thread-local
// multithreading switch, where LibTorch has one): device backward then also runs here, where
// host callables may be called, instead of on the engine's device threads.
class SingleThreadedBackward {
public:
    SingleThreadedBackward();
    ~SingleThreadedBackward();
    SingleThreadedBackward(const SingleThreadedBackward&) = delete;
    SingleThreadedBackward& operator=(const SingleThreadedBackward&) = delete;

private:
    bool previous_;
};

} // namespace spl
