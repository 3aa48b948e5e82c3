// The handle table: the only global state of the plugin.
//
// Simple code never sees a pointer. A handle is an opaque i64 that encodes a
// slot index, the slot's generation and a fixed tag, so that a freed, stale
// (slot reused) or forged handle is recognised and refused with an error
// instead of being dereferenced.
//
// Threads: handles may be created, used and freed on any thread. As with any
// object, freeing a handle while another thread still uses it is a race in
// the caller's program.
#pragma once

#include "abi/error_guard.h"

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <memory>
#include <mutex>
#include <vector>

namespace spl {

// Anything else a handle may hold (a background job, ...): named in errors by kind().
class HandleObject {
public:
    virtual ~HandleObject() = default;
    virtual const char* kind() const noexcept = 0;
};

class HandleTable {
public:
    static HandleTable& instance();

    // Stores a tensor and returns its new handle. An undefined tensor maps to 0 (None).
    int64_t insert(at::Tensor&& tensor);
    // Stores a random generator (lib.torch's Generator objects share the table, its
    // generation checks and rt_torch_release with tensors).
    int64_t insert_generator(at::Generator generator);

    // Stores another object (a background job ...); freeing the handle destroys it.
    int64_t insert_object(std::shared_ptr<HandleObject> object);

    // The tensor behind a live handle; throws SplError naming `what` otherwise.
    // The reference stays valid until the handle is freed.
    at::Tensor& get(int64_t handle, const char* what) const;
    // The generator behind a live generator handle; throws SplError naming `what` otherwise.
    at::Generator& generator(int64_t handle, const char* what) const;
    // The object of type T behind a live handle (a shared reference: the object outlives a
    // concurrent free); throws SplError naming `what` and `kind` otherwise.
    template <class T>
    std::shared_ptr<T> object(int64_t handle, const char* what, const char* kind) const;
    // Whether a live handle holds a generator (ATen's Generator? arguments take one).
    bool holds_generator(int64_t handle) const noexcept;

    // Frees a live handle; freeing twice, or a forged handle, throws.
    void release(int64_t handle);

    bool is_live(int64_t handle) const noexcept;
    // Counts live slots (a scan: meant for leak checks, not hot paths).
    int64_t live_count() const noexcept;

    // Handle layout: [tag:15][generation:24][slot number:24]; always positive.
    static constexpr int kIndexBits = 24;
    static constexpr int kGenerationBits = 24;
    static constexpr int64_t kTag = 0x5A7;

private:
    // Slots are numbered by the handle's low kIndexBits bits (its "index+1"); slot 0 is never
    // issued, and holds -1 as its handle so that no handle, 0 included, matches it: a lookup
    // needs no range or sign check.
    static constexpr uint32_t kChunkBits = 12; // 4096 slots a chunk
    static constexpr uint32_t kChunkSize = 1u << kChunkBits;
    static constexpr uint32_t kMaxChunks = (1u << kIndexBits) / kChunkSize;
    static constexpr int64_t kSlotMask = (int64_t(1) << kIndexBits) - 1;

    struct Slot {
        at::Tensor tensor;                    // defined in a tensor's slot
        at::Generator generator;              // defined in a generator's slot
        std::shared_ptr<HandleObject> object; // set in another object's slot
        uint32_t generation = 0;              // bumped on every free; 0 is never live
        // The handle this slot is live under, 0 while free: a lookup is one comparison
        // (tag, generation and slot number at once). Atomic only so that live_count() may read
        // it from another thread; relaxed loads and stores cost nothing more than plain ones.
        std::atomic<int64_t> handle{0};
    };

    // Each thread keeps a few free slot numbers, so that the steady state of "create a
    // result, free it" takes no lock; the shared free list behind mutex_ refills and drains
    // them in batches. A plain array in a trivially constructed thread_local: reaching it is
    // one thread-pointer-relative access, with no initialisation guard. A thread's numbers
    // go back to the shared list when it exits (CacheReturner, made on its first slow path).
    static constexpr uint32_t kCacheBatch = 32;
    struct FreeSlots {
        uint32_t count;
        bool returned_at_exit;
        uint32_t numbers[2 * kCacheBatch];
    };
    static inline thread_local FreeSlots t_free_slots{};
    struct CacheReturner;
    static void return_at_thread_exit();
    void refill_or_throw();                        // this thread's cache refilled, or no slot is left
    int64_t insert_refilling(at::Tensor&& tensor); // insert() when this thread's cache is empty
    void allocate_chunk(uint32_t chunk);           // under mutex_
    void give_slot(uint32_t number, c10::TensorImpl* doomed = nullptr);
    void release_other(int64_t handle);
    void refill(FreeSlots& cache);
    void drain(FreeSlots& cache, uint32_t keep);

    HandleTable();
    static HandleTable* const table_; // the one table
    Slot* slot_for(int64_t handle) const noexcept;
    Slot& slot_at(uint32_t number) const noexcept {
        return chunks_[number >> kChunkBits].load(std::memory_order_acquire)[number & (kChunkSize - 1)];
    }
    [[noreturn]] void fail_lookup(int64_t handle, const char* what) const;
    template <class Fill>
    int64_t occupy(Fill&& fill); // a free slot, filled by `fill` and marked live
    template <class Fill>
    int64_t occupy_cached(Fill&& fill); // the same, from this thread's cache, known not empty
    static int64_t handle_of(uint32_t number, const Slot& slot) noexcept {
        return (kTag << (kIndexBits + kGenerationBits)) | (int64_t(slot.generation) << kIndexBits) | int64_t(number);
    }
    bool was_issued(int64_t handle) const noexcept; // for a tagged handle that is not live

    // Chunks never move once allocated, so lookups need no lock.
    // Inside the table (32 KB), not behind a pointer: one load less per lookup.
    std::atomic<Slot*> chunks_[kMaxChunks] = {};
    std::vector<std::unique_ptr<Slot[]>> owned_chunks_;
    std::vector<uint32_t> free_;
    uint32_t next_unused_ = 1; // slot 0 is never issued
    mutable std::mutex mutex_;
};

inline HandleTable::Slot* HandleTable::slot_for(int64_t handle) const noexcept {
    const auto number = static_cast<uint32_t>(handle & kSlotMask);
    Slot* chunk = chunks_[number >> kChunkBits].load(std::memory_order_acquire);
    if (!chunk) return nullptr;
    Slot* slot = &chunk[number & (kChunkSize - 1)];
    return slot->handle.load(std::memory_order_relaxed) == handle ? slot : nullptr;
}

// Made when the plugin loads, before any static initialiser of a file that includes this
// header runs (an inline variable is initialised before the ones that follow it), so that
// instance() is one load, without a function-local static's guard on every call. Leaked on
// purpose: tensors must not be destroyed after LibTorch's own static state at process exit.
inline HandleTable* const HandleTable::table_ = new HandleTable();

inline HandleTable& HandleTable::instance() { return *table_; }

// Always inlined: every tensor argument of every call comes through here.
[[gnu::always_inline]] inline at::Tensor& HandleTable::get(int64_t handle, const char* what) const {
    Slot* slot = slot_for(handle);
    if (slot && slot->tensor.defined()) return slot->tensor;
    fail_lookup(handle, what);
}

inline bool HandleTable::holds_generator(int64_t handle) const noexcept {
    Slot* slot = slot_for(handle);
    return slot && slot->generator.defined();
}

template <class T>
std::shared_ptr<T> HandleTable::object(int64_t handle, const char* what, const char* kind) const {
    Slot* slot = slot_for(handle);
    if (slot) {
        if (auto typed = std::dynamic_pointer_cast<T>(slot->object)) return typed;
        const char* held = slot->object ? slot->object->kind() : slot->generator.defined() ? "a Generator" : "a tensor";
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is " + held + ", not " + kind);
    }
    fail_lookup(handle, what);
}

inline bool HandleTable::is_live(int64_t handle) const noexcept { return slot_for(handle) != nullptr; }

} // namespace spl
