// The handle table: generation-checked tensor handles, the plugin's only global state.
#include "core/handle_table.h"

#include "core/error_guard.h"

#include <string>

namespace spl {

struct HandleTable::ThreadCache {
    std::vector<uint32_t> free;
    ~ThreadCache() { HandleTable::instance().drain(free, 0); } // a thread's cached slots go back on exit
};

HandleTable::ThreadCache& HandleTable::thread_cache() {
    thread_local ThreadCache cache;
    return cache;
}

void HandleTable::refill(std::vector<uint32_t>& cache) {
    std::lock_guard<std::mutex> lock(mutex_);
    while (cache.size() < kCacheBatch && !free_.empty()) {
        cache.push_back(free_.back());
        free_.pop_back();
    }
    // A handle stores index+1 in kIndexBits bits: the last index would not fit.
    while (cache.size() < kCacheBatch && next_unused_ < kMaxChunks * kChunkSize - 1) {
        const uint32_t index = next_unused_++;
        if ((index & (kChunkSize - 1)) == 0) {
            owned_chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
            for (uint32_t i = 0; i < kChunkSize; ++i) owned_chunks_.back()[i].generation = 1;
            chunks_[index >> kChunkBits].store(owned_chunks_.back().get(), std::memory_order_release);
        }
        cache.push_back(index);
    }
}

void HandleTable::drain(std::vector<uint32_t>& cache, size_t keep) {
    std::lock_guard<std::mutex> lock(mutex_);
    while (cache.size() > keep) {
        free_.push_back(cache.back());
        cache.pop_back();
    }
}

uint32_t HandleTable::take_index() {
    std::vector<uint32_t>& cache = thread_cache().free;
    if (cache.empty()) refill(cache);
    if (cache.empty())
        throw SplError("too many live tensors (" + std::to_string(live_count()) + "): free some handles");
    const uint32_t index = cache.back();
    cache.pop_back();
    return index;
}

void HandleTable::give_index(uint32_t index) {
    std::vector<uint32_t>& cache = thread_cache().free;
    cache.push_back(index);
    if (cache.size() >= 2 * kCacheBatch) drain(cache, kCacheBatch);
}

int64_t HandleTable::handle_of(uint32_t index, const Slot& slot) const noexcept {
    return (kTag << (kIndexBits + kGenerationBits)) | (int64_t(slot.generation) << kIndexBits) | int64_t(index + 1);
}

// Takes a free slot, lets `fill` put the value in it, marks it live and returns its handle.
// The slot belongs to this thread alone until its handle is returned.
template <class Fill>
int64_t HandleTable::occupy(Fill&& fill) {
    const uint32_t index = take_index();
    Slot& slot = chunks_[index >> kChunkBits].load(std::memory_order_acquire)[index & (kChunkSize - 1)];
    fill(slot);
    const int64_t handle = handle_of(index, slot);
    slot.handle.store(handle, std::memory_order_relaxed);
    return handle;
}

int64_t HandleTable::insert(at::Tensor&& tensor) {
    if (!tensor.defined()) return 0;
    return occupy([&](Slot& slot) { slot.tensor = std::move(tensor); });
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
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is a " +
                       (slot->object ? slot->object->kind() : "tensor") + ", not a Generator");
    fail_lookup(handle, what);
}

void HandleTable::release(int64_t handle) {
    Slot* slot = slot_for(handle);
    if (!slot) fail_lookup(handle, "tensor to free");
    slot->handle.store(0, std::memory_order_relaxed);
    // A generation that would wrap retires the slot for good, so an old
    // handle can never alias a new tensor.
    const bool reuse = ++slot->generation < (1u << kGenerationBits);
    const auto index = static_cast<uint32_t>((handle & ((1 << kIndexBits) - 1)) - 1);
    // The value dies when this function returns, after its slot is free again. Only a
    // tensor's slot holds a tensor; the other members are looked at only when it does not.
    if (slot->tensor.defined()) {
        at::Tensor doomed = std::move(slot->tensor);
        if (reuse) give_index(index);
        return;
    }
    at::Generator doomed_generator = std::move(slot->generator);
    std::shared_ptr<HandleObject> doomed_object = std::move(slot->object); // a job's destructor waits for it
    if (reuse) give_index(index);
}

int64_t HandleTable::live_count() const noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    int64_t live = 0;
    for (const auto& chunk : owned_chunks_)
        for (uint32_t i = 0; i < kChunkSize; ++i) live += chunk[i].handle.load(std::memory_order_relaxed) != 0;
    return live;
}

bool HandleTable::was_issued(int64_t handle) const noexcept {
    // Called only for a handle with the right tag that is not live. A slot's
    // generation starts at 1 and is bumped on every free, so the handles it
    // has issued carry generations 1 .. generation-1 (plus the current one
    // while live): a generation in that range was issued and freed since.
    const uint32_t index1 = static_cast<uint32_t>(handle & ((1 << kIndexBits) - 1));
    if (index1 == 0) return false;
    const Slot* chunk = chunks_[(index1 - 1) >> kChunkBits].load(std::memory_order_acquire);
    if (!chunk) return false;
    const uint32_t generation = static_cast<uint32_t>((handle >> kIndexBits) & ((1 << kGenerationBits) - 1));
    return generation != 0 && generation < chunk[(index1 - 1) & (kChunkSize - 1)].generation;
}

void HandleTable::fail_lookup(int64_t handle, const char* what) const {
    if (handle == 0) throw SplError(std::string(what) + ": got handle 0 (None) where a tensor is required");
    if (holds_generator(handle))
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is a Generator, not a tensor");
    if (const Slot* slot = slot_for(handle); slot && slot->object)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is a " + slot->object->kind() +
                       ", not a tensor");
    if (handle < 0 || (handle >> (kIndexBits + kGenerationBits)) != kTag)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is not a tensor handle");
    if (was_issued(handle))
        throw SplError(std::string(what) + ": tensor handle " + std::to_string(handle) + " is stale (already freed)");
    throw SplError(std::string(what) + ": " + std::to_string(handle) +
                   " is not a live tensor handle (never issued by this plugin)");
}

} // namespace spl
