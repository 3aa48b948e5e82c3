// torch.cuda.Stream and torch.cuda.Event on c10's device-generic Stream and Event: the pool's
// streams, the thread's current stream (what a `with torch.cuda.stream(s):` scope exchanges),
// recording, waiting, and the time between two events.
#include "extras/cuda/cuda_support.h"

extern "C" {

// torch.cuda.Stream(device, priority): a stream from LibTorch's pool (priority < 0: a
// high-priority one).
SPL_TORCH_EXPORT int64_t rt_torch_cuda_stream_new(int64_t device, int64_t priority) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::cuda::new_stream(
            spl::cuda::impl().getStreamFromGlobalPool(spl::cuda::device(device), priority < 0));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_cuda_current_stream(int64_t device) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::cuda::new_stream(spl::cuda::impl().getStream(spl::cuda::device(device))); });
}

SPL_TORCH_EXPORT int64_t rt_torch_cuda_default_stream(int64_t device) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::cuda::new_stream(spl::cuda::impl().getDefaultStream(spl::cuda::device(device))); });
}

// Makes the stream current on its device for this thread; returns the one it replaced.
SPL_TORCH_EXPORT int64_t rt_torch_cuda_exchange_stream(int64_t stream) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::cuda::new_stream(spl::cuda::impl().exchangeStream(spl::cuda::stream(stream))); });
}

// [stream_id, device_index]: Stream.stream_id, Stream.device_index.
SPL_TORCH_EXPORT SplValue rt_torch_cuda_stream_ids(int64_t stream) {
    return spl::guarded<SplValue>(__func__, [&] {
        const c10::Stream s = spl::cuda::stream(stream);
        spl::ResultArena::current().reset();
        SplValue* items = spl::ResultArena::current().values(2);
        items[0] = spl::v_i64(s.id());
        items[1] = spl::v_i64(s.device_index());
        return spl::v_array(items, 2);
    });
}

SPL_TORCH_EXPORT bool rt_torch_cuda_stream_query(int64_t stream) {
    return spl::guarded<bool>(__func__, [&] { return spl::cuda::impl().queryStream(spl::cuda::stream(stream)); });
}

SPL_TORCH_EXPORT void rt_torch_cuda_stream_synchronize(int64_t stream) {
    spl::guarded<void>(__func__, [&] { spl::cuda::impl().synchronizeStream(spl::cuda::stream(stream)); });
}

// torch.cuda.Event(enable_timing): timing needs the backend's default flags, as PyTorch's.
SPL_TORCH_EXPORT int64_t rt_torch_cuda_event_new(bool enable_timing) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::cuda::impl();
        const auto flag = enable_timing ? c10::EventFlag::BACKEND_DEFAULT : c10::EventFlag::PYTORCH_DEFAULT;
        return spl::HandleTable::instance().insert_object(std::make_shared<spl::cuda::EventObject>(flag));
    });
}

SPL_TORCH_EXPORT void rt_torch_cuda_event_record(int64_t event, int64_t stream) {
    spl::guarded<void>(__func__, [&] { spl::cuda::event(event).record(spl::cuda::stream(stream)); });
}

// Stream.wait_event / Event.wait(stream): later work on the stream waits for the event.
SPL_TORCH_EXPORT void rt_torch_cuda_event_block(int64_t event, int64_t stream) {
    spl::guarded<void>(__func__, [&] { spl::cuda::event(event).block(spl::cuda::stream(stream)); });
}

SPL_TORCH_EXPORT bool rt_torch_cuda_event_query(int64_t event) {
    return spl::guarded<bool>(__func__, [&] { return spl::cuda::event(event).query(); });
}

SPL_TORCH_EXPORT void rt_torch_cuda_event_synchronize(int64_t event) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_GENERIC_ACCELERATOR
        spl::cuda::event(event).synchronize();
#else
        spl::cuda::too_old("Event.synchronize");
#endif
    });
}

// Milliseconds from this event to `end` (both recorded, both made with enable_timing).
SPL_TORCH_EXPORT double rt_torch_cuda_event_elapsed_time(int64_t start, int64_t end) {
    return spl::guarded<double>(__func__, [&]() -> double {
#if SPL_TORCH_GENERIC_ACCELERATOR
        return spl::cuda::event(start).elapsedTime(spl::cuda::event(end));
#else
        spl::cuda::too_old("Event.elapsed_time");
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_cuda_stream_new, "device", "priority")
SPL_EXTRA(rt_torch_cuda_current_stream, "device")
SPL_EXTRA(rt_torch_cuda_default_stream, "device")
SPL_EXTRA(rt_torch_cuda_exchange_stream, "stream")
SPL_EXTRA_RETURNS(rt_torch_cuda_stream_ids, "[i64]", "stream")
SPL_EXTRA(rt_torch_cuda_stream_query, "stream")
SPL_EXTRA(rt_torch_cuda_stream_synchronize, "stream")
SPL_EXTRA(rt_torch_cuda_event_new, "enable_timing")
SPL_EXTRA(rt_torch_cuda_event_record, "event", "stream")
SPL_EXTRA(rt_torch_cuda_event_block, "event", "stream")
SPL_EXTRA(rt_torch_cuda_event_query, "event")
SPL_EXTRA(rt_torch_cuda_event_synchronize, "event")
SPL_EXTRA(rt_torch_cuda_event_elapsed_time, "start", "end")
