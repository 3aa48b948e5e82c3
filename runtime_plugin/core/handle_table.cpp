// The handle table: generation-checked tensor handles, the plugin's only global state.
#include "core/handle_table.h"

#include "abi/error_guard.h"

#include <string>

namespace spl {

HandleTable::HandleTable() {
    // Slot 0, never issued, matches no handle (slot_for).
    std::lock_guard<std::mutex> lock(mutex_);
    allocate_chunk(0);
    owned_chunks_[0][0].handle.store(-1, std::memory_order_relaxed);
}

void HandleTable::allocate_chunk(uint32_t chunk) {
    owned_chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
    for (uint32_t i = 0; i < kChunkSize; ++i) owned_chunks_.back()[i].generation = 1;
    chunks_[chunk].store(owned_chunks_.back().get(), std::memory_order_release);
}

struct HandleTable::CacheReturner {
    ~CacheReturner() { HandleTable::instance().drain(t_free_slots, 0); }
};

// The first slow path of each thread makes its CacheReturner, whose destructor runs when the
// thread exits; the fast paths never touch it (a thread_local with a destructor is reached
// through an initialisation check).
void HandleTable::return_at_thread_exit() {
    if (t_free_slots.returned_at_exit) return;
    thread_local CacheReturner returner;
    t_free_slots.returned_at_exit = true;
}

void HandleTable::refill(FreeSlots& cache) {
    return_at_thread_exit();
    std::lock_guard<std::mutex> lock(mutex_);
    while (cache.count < kCacheBatch && !free_.empty()) {
        cache.numbers[cache.count++] = free_.back();
        free_.pop_back();
    }
    while (cache.count < kCacheBatch && next_unused_ < kMaxChunks * kChunkSize) {
        const uint32_t number = next_unused_++;
        if ((number & (kChunkSize - 1)) == 0) allocate_chunk(number >> kChunkBits);
        cache.numbers[cache.count++] = number;
    }
}

void HandleTable::drain(FreeSlots& cache, uint32_t keep) {
    return_at_thread_exit();
    std::lock_guard<std::mutex> lock(mutex_);
    while (cache.count > keep) free_.push_back(cache.numbers[--cache.count]);
}

// Takes a free slot from this thread's cache (not empty), lets `fill` put the value in it, marks
// it live and returns its handle. The slot belongs to this thread alone until its handle is
// returned.
template <class Fill>
int64_t HandleTable::occupy_cached(Fill&& fill) {
    FreeSlots& cache = t_free_slots;
    const uint32_t number = cache.numbers[--cache.count];
    Slot& slot = slot_at(number);
    fill(slot);
    const int64_t handle = handle_of(number, slot);
    slot.handle.store(handle, std::memory_order_relaxed);
    return handle;
}

template <class Fill>
int64_t HandleTable::occupy(Fill&& fill) {
    if (t_free_slots.count == 0) refill_or_throw();
    return occupy_cached(std::forward<Fill>(fill));
}

void HandleTable::refill_or_throw() {
    refill(t_free_slots);
    if (t_free_slots.count == 0)
        throw SplError("too many live tensors (" + std::to_string(live_count()) + "): free some handles");
}

// The common case needs no frame: an empty cache is refilled by a separate function (a tail
// call), which then inserts again.
int64_t HandleTable::insert(at::Tensor&& tensor) {
    if (!tensor.defined()) return 0;
    if (t_free_slots.count == 0) return insert_refilling(std::move(tensor));
    // A free slot's tensor is undefined, whose destructor does nothing: moved into in place,
    // without the assignment's release of the old value.
    return occupy_cached([&](Slot& slot) { new (&slot.tensor) at::Tensor(std::move(tensor)); });
}

[[gnu::noinline]] int64_t HandleTable::insert_refilling(at::Tensor&& tensor) {
    refill_or_throw();
    return insert(std::move(tensor));
}

int64_t HandleTable::insert_generator(at::Generator generator) {
    if (!generator.defined()) return 0;
    return occupy([&](Slot& slot) { slot.generator = std::move(generator); });
}

int64_t HandleTable::insert_object(std::shared_ptr<HandleObject> object) {
    if (!object) return 0;
    return occupy([&](Slot& slot) { slot.object = std::move(object); });
}

at::Generator& HandleTable::generator(int64_t handle, const char* what) const {
    Slot* slot = slot_for(handle);
    if (slot && slot->generator.defined()) return slot->generator;
    if (slot)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is " +
                       (slot->object ? slot->object->kind() : "a tensor") + ", not a Generator");
    fail_lookup(handle, what);
}

namespace {
// Drops the last reference the table held (slot storage no longer involved).
inline void free_tensor(c10::TensorImpl* impl) {
    c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>::reclaim(impl);
}
} // namespace

// No call is made with a value live across it, so that the common case needs no frame: the
// rare ones are tail calls.
void HandleTable::release(int64_t handle) {
    Slot* slot = slot_for(handle);
    if (!slot || !slot->tensor.defined()) return release_other(handle);
    slot->handle.store(0, std::memory_order_relaxed);
    // The tensor dies last, after its slot is free again: its destructor may run any code.
    c10::TensorImpl* doomed = slot->tensor.unsafeReleaseTensorImpl();
    // A generation that would wrap retires the slot for good, so an old
    // handle can never alias a new tensor.
    if (++slot->generation >= (1u << kGenerationBits)) return free_tensor(doomed);
    FreeSlots& cache = t_free_slots;
    const auto number = static_cast<uint32_t>(handle & kSlotMask);
    if (cache.count == 2 * kCacheBatch) return give_slot(number, doomed);
    cache.numbers[cache.count++] = number;
    free_tensor(doomed);
}

// release() of a generator or another object, or of a handle that is not live.
[[gnu::noinline]] void HandleTable::release_other(int64_t handle) {
    Slot* slot = slot_for(handle);
    if (!slot) fail_lookup(handle, "tensor to free");
    slot->handle.store(0, std::memory_order_relaxed);
    const bool reuse = ++slot->generation < (1u << kGenerationBits);
    at::Generator doomed_generator = std::move(slot->generator);
    std::shared_ptr<HandleObject> doomed_object = std::move(slot->object); // a job's destructor waits for it
    if (reuse) give_slot(static_cast<uint32_t>(handle & kSlotMask));
}

// Puts a free slot number in this thread's cache, first draining the cache to the shared
// list down to one batch when it is full; then frees `doomed`, the slot's old tensor, if any.
[[gnu::noinline]] void HandleTable::give_slot(uint32_t number, c10::TensorImpl* doomed) {
    FreeSlots& cache = t_free_slots;
    if (cache.count == 2 * kCacheBatch) drain(cache, kCacheBatch);
    cache.numbers[cache.count++] = number;
    if (doomed) free_tensor(doomed);
}

int64_t HandleTable::live_count() const noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    int64_t live = 0;
    for (const auto& chunk : owned_chunks_)
        for (uint32_t i = 0; i < kChunkSize; ++i) live += chunk[i].handle.load(std::memory_order_relaxed) > 0;
    return live;
}

bool HandleTable::was_issued(int64_t handle) const noexcept {
    // Called only for a handle with the right tag that is not live. A slot's
    // generation starts at 1 and is bumped on every free, so the handles it
    // has issued carry generations 1 .. generation-1 (plus the current one
    // while live): a generation in that range was issued and freed since.
    const auto number = static_cast<uint32_t>(handle & kSlotMask);
    if (number == 0) return false;
    const Slot* chunk = chunks_[number >> kChunkBits].load(std::memory_order_acquire);
    if (!chunk) return false;
    const uint32_t generation = static_cast<uint32_t>((handle >> kIndexBits) & ((1 << kGenerationBits) - 1));
    return generation != 0 && generation < chunk[number & (kChunkSize - 1)].generation;
}

void HandleTable::fail_lookup(int64_t handle, const char* what) const {
    if (handle == 0) throw SplError(std::string(what) + ": got handle 0 (None) where a tensor is required");
    if (holds_generator(handle))
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is a Generator, not a tensor");
    if (const Slot* slot = slot_for(handle); slot && slot->object)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is " + slot->object->kind() +
                       ", not a tensor");
    if (handle < 0 || (handle >> (kIndexBits + kGenerationBits)) != kTag)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is not a tensor handle");
    if (was_issued(handle))
        throw SplError(std::string(what) + ": tensor handle " + std::to_string(handle) + " is stale (already freed)");
    throw SplError(std::string(what) + ": " + std::to_string(handle) +
                   " is not a live tensor handle (never issued by this plugin)");
}

} // namespace spl
