// The PyObject handle table: Simple code holds a Python object as an opaque i64, each handle a
// strong reference, dropped by rt_python_release. Laid out as the torch plugin's handles
// (core/handle_table.h: [tag:15][generation:24][slot:24]) with a tag of its own, so that a
// released (stale), forged or torch handle is refused with an error naming it, never read.
//
// Every access holds the GIL, which also guards the table. Tensors (phase 2) will be plain
// entries holding a torch.Tensor, crossing to the torch plugin as the same TensorImpl.
#pragma once

#include "python/interpreter.h"

#include <cstdint>
#include <vector>

namespace spl::python {

class ObjectTable {
public:
    static ObjectTable& instance();

    // Stores `owned` (its reference moves into the table) and returns its new handle.
    int64_t insert(PyObject* owned);
    // A new handle holding another reference to `borrowed`.
    int64_t insert_borrowed(PyObject* borrowed) {
        Py_INCREF(borrowed);
        return insert(borrowed);
    }
    // The object behind a live handle (borrowed: valid while the handle lives); throws SplError
    // naming `what` otherwise.
    PyObject* get(int64_t handle, const char* what) const;
    // Drops the handle's reference; a stale or forged handle throws.
    void release(int64_t handle);
    int64_t live_count() const noexcept { return live_; }

    static constexpr int kIndexBits = 24;
    static constexpr int kGenerationBits = 24;
    static constexpr int64_t kTag = 0x5B1; // the torch plugin's is 0x5A7

private:
    struct Slot {
        PyObject* object = nullptr;
        uint32_t generation = 1; // bumped on every release; a handle carries the one it was issued with
        int64_t handle = 0;      // the live handle, 0 while free
    };
    static constexpr int64_t kSlotMask = (int64_t(1) << kIndexBits) - 1;
    static int64_t handle_of(uint32_t number, const Slot& slot) noexcept {
        return (kTag << (kIndexBits + kGenerationBits)) | (int64_t(slot.generation) << kIndexBits) | int64_t(number);
    }
    [[noreturn]] void fail_lookup(int64_t handle, const char* what) const;

    std::vector<Slot> slots_{1}; // slot 0 is never issued
    std::vector<uint32_t> free_;
    int64_t live_ = 0;
};

// The object behind the handle `h` of an entry point's argument (ObjectTable::get, naming it "object").
inline PyObject* object(int64_t h) { return ObjectTable::instance().get(h, "object"); }

} // namespace spl::python
