// The PyObject handle table (objects.h) and the entry points of a handle's lifetime.
#include "python/objects.h"

#include "abi/error_guard.h"
#include "python/errors.h"
#include "abi/extra_registration.h"

#include <string>

namespace spl::python {

ObjectTable& ObjectTable::instance() {
    static ObjectTable* table = new ObjectTable(); // leaked: its objects outlive the host's globals
    return *table;
}

int64_t ObjectTable::insert(PyObject* owned) {
    Ref guard(owned); // released again if no slot is left
    uint32_t number;
    if (!free_.empty()) {
        number = free_.back();
        free_.pop_back();
    } else {
        if (slots_.size() > static_cast<size_t>(kSlotMask))
            throw SplError("too many live Python objects (" + std::to_string(live_) + "): release some handles");
        number = static_cast<uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    Slot& slot = slots_[number];
    slot.object = guard.release();
    slot.handle = handle_of(number, slot);
    ++live_;
    return slot.handle;
}

PyObject* ObjectTable::get(int64_t handle, const char* what) const {
    const auto number = static_cast<uint64_t>(handle & kSlotMask);
    if (handle > 0 && number < slots_.size() && slots_[number].handle == handle) return slots_[number].object;
    fail_lookup(handle, what);
}

void ObjectTable::release(int64_t handle) {
    get(handle, "object to release");
    Slot& slot = slots_[static_cast<size_t>(handle & kSlotMask)];
    PyObject* doomed = slot.object;
    slot.object = nullptr;
    slot.handle = 0;
    --live_;
    // A generation that would wrap retires the slot, so an old handle never names a new object.
    if (++slot.generation < (1u << kGenerationBits)) free_.push_back(static_cast<uint32_t>(handle & kSlotMask));
    Py_DECREF(doomed); // last: its __del__ may run any code, this table included
}

void ObjectTable::fail_lookup(int64_t handle, const char* what) const {
    const std::string h = std::to_string(handle);
    if (handle == 0) throw SplError(std::string(what) + ": got handle 0 where a Python object is required");
    if (handle < 0 || (handle >> (kIndexBits + kGenerationBits)) != kTag)
        throw SplError(std::string(what) + ": " + h + " is not a Python object handle");
    const auto number = static_cast<uint64_t>(handle & kSlotMask);
    const auto generation = static_cast<uint32_t>((handle >> kIndexBits) & ((1 << kGenerationBits) - 1));
    if (number > 0 && number < slots_.size() && generation != 0 && generation < slots_[number].generation)
        throw SplError(std::string(what) + ": Python object handle " + h + " is stale (already released)");
    throw SplError(std::string(what) + ": " + h + " is not a live Python object handle (never issued)");
}

} // namespace spl::python

extern "C" {

// Drops the handle's reference (PyObject.drop).
SPL_TORCH_EXPORT void rt_python_release(int64_t h) {
    spl::guarded<void>(__func__, [&] {
        spl::python::Gil gil;
        spl::python::ObjectTable::instance().release(h);
    });
}

// How many handles are live (for leak tests).
SPL_TORCH_EXPORT int64_t rt_python_live_handles(void) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        return spl::python::ObjectTable::instance().live_count();
    });
}

} // extern "C"

SPL_EXTRA(rt_python_release, "h")
SPL_EXTRA(rt_python_live_handles)
