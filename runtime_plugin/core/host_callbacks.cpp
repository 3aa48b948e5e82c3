#include "core/host_callbacks.h"

#include "core/libtorch_compat.h"

#include <c10/core/AutogradState.h>

namespace spl {

SingleThreadedBackward::SingleThreadedBackward() {
#if SPL_TORCH_AT_LEAST(2, 0)
    previous_ = c10::AutogradState::get_tls_state().get_multithreading_enabled();
    c10::AutogradState::get_tls_state().set_multithreading_enabled(false);
#else
    previous_ = true; // LibTorch 1.13 runs CPU backward on the calling thread, and has no switch
#endif
}

SingleThreadedBackward::~SingleThreadedBackward() {
#if SPL_TORCH_AT_LEAST(2, 0)
    c10::AutogradState::get_tls_state().set_multithreading_enabled(previous_);
#endif
}

} // namespace spl
