// The few places where LibTorch's C++ API differs between the versions we
// build against (1.13 from Debian, 2.x from PyPI). Everything else in the
// runtime uses the API both share: c10::optional (std::optional in 2.x, its
// own type in 1.13, which the operators take), c10::string_view, ArrayRefs.
#pragma once

#include <torch/csrc/api/include/torch/version.h>

#include <c10/core/SymIntArrayRef.h>
#include <c10/util/ArrayRef.h>

#define SPL_TORCH_AT_LEAST(major, minor)                                                                               \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// SymBool (a symbolic bool) and the float8 dtypes arrived in 2.1.
#define SPL_TORCH_HAS_SYMBOOL SPL_TORCH_AT_LEAST(2, 1)
#define SPL_TORCH_HAS_FLOAT8 SPL_TORCH_AT_LEAST(2, 1)
// uint16, uint32 and uint64 arrived in 2.3.
#define SPL_TORCH_HAS_UNSIGNED SPL_TORCH_AT_LEAST(2, 3)
// c10's device-generic accelerator interface as torch.cuda's extras use it (synchronizeDevice,
// Event::elapsedTime, the hooks' getDefaultGenerator, the caching allocator's DeviceAllocator):
// complete in 2.9.
#define SPL_TORCH_GENERIC_ACCELERATOR SPL_TORCH_AT_LEAST(2, 9)

namespace spl::compat {

// Plain integers as SymInts (no symbolic value can come from Simple).
inline c10::SymIntArrayRef as_sym_ints(c10::IntArrayRef values) {
#if SPL_TORCH_AT_LEAST(2, 0)
    return c10::fromIntArrayRefSlow(values);
#else
    return c10::fromIntArrayRef(values);
#endif
}

} // namespace spl::compat
