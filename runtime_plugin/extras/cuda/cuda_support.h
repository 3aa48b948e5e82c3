// What torch.cuda's extras share: the CUDA device-guard implementation (c10's device-generic
// interface to streams, events and devices, registered by LibTorch's CUDA part) and the
// handle-table objects for streams, events and graphs.
#pragma once

#include "core/cuda_companion.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"

#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <string>

namespace spl::cuda {

// After require_cuda(): the registered CUDA implementation.
inline const c10::impl::DeviceGuardImplInterface& impl() {
    require_cuda();
    return *c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
}

// An entry point of torch.cuda that needs c10's generic accelerator interface.
[[noreturn]] inline void too_old(const char* what) {
    TORCH_CHECK(false, "torch.cuda.", what, " needs LibTorch 2.9 or later (this plugin was built against ",
                TORCH_VERSION, ")");
}

// A device index as torch.cuda takes it: -1 (None) is the current device.
inline c10::Device device(int64_t index) {
    if (index < 0) return impl().getDevice();
    const int64_t count = impl().deviceCount();
    TORCH_CHECK(index < count, "Invalid device id ", index, " (", count, " CUDA device(s) available)");
    return c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(index));
}

class StreamObject : public HandleObject {
public:
    static constexpr const char* kKind = "a CUDA stream";
    explicit StreamObject(c10::Stream s) : stream(s) {}
    const char* kind() const noexcept override { return kKind; }
    const c10::Stream stream;
};

class EventObject : public HandleObject {
public:
    static constexpr const char* kKind = "a CUDA event";
    explicit EventObject(c10::EventFlag flag) : event(c10::DeviceType::CUDA, flag) {}
    const char* kind() const noexcept override { return kKind; }
    c10::Event event;
};

inline c10::Stream stream(int64_t handle) {
    return HandleTable::instance().object<StreamObject>(handle, "stream", StreamObject::kKind)->stream;
}

inline int64_t new_stream(c10::Stream s) {
    return HandleTable::instance().insert_object(std::make_shared<StreamObject>(s));
}

inline c10::Event& event(int64_t handle) {
    return HandleTable::instance().object<EventObject>(handle, "event", EventObject::kKind)->event;
}

} // namespace spl::cuda
