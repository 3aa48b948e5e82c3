#include "core/handle_table.h"

#include "core/error_guard.h"

#include <string>

namespace spl {

HandleTable& HandleTable::instance() {
    // Leaked on purpose: tensors must not be destroyed after LibTorch's own
    // static state during process exit.
    static HandleTable* table = new HandleTable();
    return *table;
}

int64_t HandleTable::insert(at::Tensor tensor) {
    if (!tensor.defined()) return 0;
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t index;
    if (!free_.empty()) {
        index = free_.back();
        free_.pop_back();
    } else {
        if (next_unused_ >= kMaxChunks * kChunkSize)
            throw SplError("too many live tensors (" + std::to_string(live_count()) + "): free some handles");
        index = next_unused_++;
        if ((index & (kChunkSize - 1)) == 0) {
            owned_chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
            for (uint32_t i = 0; i < kChunkSize; ++i) owned_chunks_.back()[i].generation = 1;
            chunks_[index >> kChunkBits].store(owned_chunks_.back().get(), std::memory_order_release);
        }
    }
    Slot& slot = chunks_[index >> kChunkBits].load(std::memory_order_relaxed)[index & (kChunkSize - 1)];
    slot.tensor = std::move(tensor);
    slot.live = true;
    live_.fetch_add(1, std::memory_order_relaxed);
    return (kTag << (kIndexBits + kGenerationBits)) | (int64_t(slot.generation) << kIndexBits) | int64_t(index + 1);
}

void HandleTable::release(int64_t handle) {
    at::Tensor doomed; // destroyed after the lock is dropped
    {
        std::lock_guard<std::mutex> lock(mutex_);
        Slot* slot = slot_for(handle);
        if (!slot) fail_lookup(handle, "tensor to free");
        doomed = std::move(slot->tensor);
        slot->live = false;
        // A generation that would wrap retires the slot for good, so an old
        // handle can never alias a new tensor.
        if (++slot->generation < (1u << kGenerationBits)) {
            free_.push_back(static_cast<uint32_t>((handle & ((1 << kIndexBits) - 1)) - 1));
        }
        live_.fetch_sub(1, std::memory_order_relaxed);
    }
}

void HandleTable::fail_lookup(int64_t handle, const char* what) const {
    if (handle == 0) throw SplError(std::string(what) + ": got handle 0 (None) where a tensor is required");
    if (handle < 0 || (handle >> (kIndexBits + kGenerationBits)) != kTag)
        throw SplError(std::string(what) + ": " + std::to_string(handle) + " is not a tensor handle");
    throw SplError(std::string(what) + ": tensor handle " + std::to_string(handle) +
                   " is stale (already freed)");
}

} // namespace spl
