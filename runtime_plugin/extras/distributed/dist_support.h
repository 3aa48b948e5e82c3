// What the distributed extras share: c10d's stores, process groups and works as handle-table
// objects (freeing the handle drops the reference; c10d's own reference counting keeps a store
// alive while a group built on it lives).
#pragma once

#include "extras/extra_function.h"

#include "core/libtorch_compat.h"

#if SPL_TORCH_AT_LEAST(2, 0)
#include <torch/csrc/distributed/c10d/Backend.hpp>
#else
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace spl::dist {

// A c10d store (TCPStore, FileStore, HashStore, PrefixStore).
class StoreObject : public HandleObject {
public:
    static constexpr const char* kKind = "a distributed store";
    explicit StoreObject(c10::intrusive_ptr<c10d::Store> s) : store(std::move(s)) {}
    const char* kind() const noexcept override { return kKind; }
    const c10::intrusive_ptr<c10d::Store> store;
};

// What a process group's collectives run on: its backend (ProcessGroupGloo is a c10d::Backend
// from 2.0, a c10d::ProcessGroup in 1.13).
#if SPL_TORCH_AT_LEAST(2, 0)
using BackendBase = c10d::Backend;
#else
using BackendBase = c10d::ProcessGroup;
#endif

// A process group's backend (ProcessGroupGloo).
class GroupObject : public HandleObject {
public:
    static constexpr const char* kKind = "a process group";
    explicit GroupObject(c10::intrusive_ptr<BackendBase> b) : backend(std::move(b)) {}
    const char* kind() const noexcept override { return kKind; }
    const c10::intrusive_ptr<BackendBase> backend;
};

// The work a collective started: its tensors are kept by c10d until it completes.
using WorkPtr = decltype(std::declval<BackendBase&>().barrier());
class WorkObject : public HandleObject {
public:
    static constexpr const char* kKind = "a distributed work";
    explicit WorkObject(WorkPtr w) : work(std::move(w)) {}
    const char* kind() const noexcept override { return kKind; }
    const WorkPtr work;
};

inline c10::intrusive_ptr<c10d::Store> store(int64_t handle, const char* what) {
    return HandleTable::instance().object<StoreObject>(handle, what, StoreObject::kKind)->store;
}

inline c10::intrusive_ptr<BackendBase> group(int64_t handle) {
    return HandleTable::instance().object<GroupObject>(handle, "group", GroupObject::kKind)->backend;
}

inline int64_t new_work(WorkPtr work) {
    return HandleTable::instance().insert_object(std::make_shared<WorkObject>(std::move(work)));
}

inline std::chrono::milliseconds millis(int64_t ms) { return std::chrono::milliseconds(ms); }

// "SUM", "AVG", ... as torch.distributed.ReduceOp's names; Gloo refuses the ones it lacks.
c10d::ReduceOp reduce_op(const char* name);

// Keys passed as one text, separated by newlines (Simple's extras take no list of texts).
std::vector<std::string> split_keys(const char* keys);

} // namespace spl::dist
