// Forward places for anomaly detection (anomaly_trace.h): LibTorch's RecordFunction observers,
// on this thread. A forward operation that makes a node runs with the node's sequence number
// (its seqNr), and the node's backward runs with the same number: the observer asks the host
// where its program is when the forward operation starts, and remembers, per thread, which
// node's backward started last.
#include "extras/autograd/anomaly_trace.h"

#include "core/host_callbacks.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"

#include <ATen/record_function.h>

#include <unordered_map>

namespace {

class ForwardTrace;

// The trace observing this thread (RecordFunction's callbacks are plain functions), and the
// backward node that started last on it.
thread_local ForwardTrace* t_trace = nullptr;
thread_local int64_t t_backward_seq = -1;
thread_local std::string t_backward_name;

// One thread's trace while its handle lives: the host's locator (a callable giving
// "file:line:col"), the places by sequence number, and LibTorch's observer.
class ForwardTrace : public spl::HandleObject {
public:
    static constexpr const char* kKind = "a forward-operation trace";
    // A forward place per live node is what a trace needs; past this many the oldest half of
    // a long run is forgotten (a node that old has long been freed, or is named "unknown").
    static constexpr size_t kMaxPlaces = 1u << 20;

    explicit ForwardTrace(const SplValue& locator) : locator_(locator, "locator"), outer_(t_trace) {
        t_trace = this;
        handle_ = at::addThreadLocalCallback(at::RecordFunctionCallback(&on_start).needsIds(true).scopes(
            {at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
    }
    ~ForwardTrace() override {
        at::removeCallback(handle_);
        t_trace = outer_;
    }
    const char* kind() const noexcept override { return kKind; }

    const std::string* place_of(int64_t seq) const {
        auto it = places_.find(seq);
        return it == places_.end() ? nullptr : &it->second;
    }

private:
    static std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
        if (!t_trace || fn.seqNr() < 0) return nullptr;
        if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
            t_backward_seq = fn.seqNr();
            t_backward_name = fn.name();
        } else if (!t_trace->places_.count(fn.seqNr())) {
            t_trace->remember(fn.seqNr());
        }
        return nullptr;
    }

    void remember(int64_t seq) {
        if (places_.size() >= kMaxPlaces) places_.clear();
        try {
            const SplValue place = locator_.call(nullptr, 0, "the anomaly locator");
            if (place.tag == SPL_TEXT) places_[seq] = std::string(place.as.text.ptr, place.as.text.len);
        } catch (...) {
            // A place not found is left out of the error's note; the forward operation goes on.
        }
    }

    const spl::HostCallable locator_;
    ForwardTrace* const outer_;
    at::CallbackHandle handle_ = 0;
    std::unordered_map<int64_t, std::string> places_;
};

#if SPL_TORCH_AT_LEAST(2, 0)
// Drops LibTorch's "Error detected in X. Traceback of forward call that caused the error:"
// warning (a C++ stack), passing every other warning to the handler it replaces.
class QuietForwardStacks : public c10::WarningHandler {
public:
    QuietForwardStacks() : previous_(c10::WarningUtils::get_warning_handler()) {
        c10::WarningUtils::set_warning_handler(this);
    }
    ~QuietForwardStacks() override { c10::WarningUtils::set_warning_handler(previous_); }
    void process(const c10::Warning& warning) override {
        const std::string& text = warning.msg();
        if (text.rfind("Error detected in ", 0) == 0 && text.find("Traceback of forward call") != std::string::npos)
            return;
        previous_->process(warning);
    }

private:
    c10::WarningHandler* const previous_;
};
#endif

} // namespace

namespace spl {

std::unique_ptr<void, void (*)(void*)> quiet_cpp_forward_stacks() {
#if SPL_TORCH_AT_LEAST(2, 0)
    if (t_trace) return {new QuietForwardStacks(), [](void* p) { delete static_cast<QuietForwardStacks*>(p); }};
#endif
    return {nullptr, [](void*) {}};
}

std::string forward_place_note() {
    if (!t_trace || t_backward_seq < 0) return "";
    const std::string* place = t_trace->place_of(t_backward_seq);
    if (!place || place->empty()) return "";
    return "Error detected in " + t_backward_name + ". The forward call that caused the error: " + *place;
}

} // namespace spl

extern "C" {

// Starts a trace of forward places on this thread: `locator` is a host callable that returns
// where the host's program is ("file:line:col"). Freeing the handle stops it.
SPL_TORCH_EXPORT int64_t rt_torch_trace_forward_ops(SplValue locator) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::HandleTable::instance().insert_object(std::make_shared<ForwardTrace>(locator)); });
}

} // extern "C"

SPL_EXTRA(rt_torch_trace_forward_ops, "locator")
