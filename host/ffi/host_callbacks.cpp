// The host's side of spl_plugin.h's callbacks.
#include "ffi/host_callbacks.h"

#include <cstdio>
#include <utility>

#include "ffi/boxing.h"
#include "resolve/objects.h"

namespace spl {

HostCallbacks& HostCallbacks::create(PluginCaller& runner) {
    // Never freed (host_callbacks.h), and reachable from here, so that leak checkers see it kept
    // on purpose.
    static std::mutex made_mutex;
    static std::vector<HostCallbacks*>* const made = new std::vector<HostCallbacks*>();
    std::lock_guard<std::mutex> lock(made_mutex);
    made->push_back(new HostCallbacks(runner));
    return *made->back();
}

HostCallbacks::HostCallbacks(PluginCaller& runner)
    : runner_(&runner), table_{this, &call_entry, &retain_entry, &release_entry}, thread_(std::this_thread::get_id()) {}

int64_t HostCallbacks::lend(const Value& fn) {
    drop_released();
    std::lock_guard<std::mutex> lock(mutex_);
    const int64_t id = next_id_++;
    entries_.emplace(id, Entry{fn, 1});
    return id;
}

void HostCallbacks::end_lend(int64_t id) {
    release(id);
    drop_released();
}

std::optional<ProgramError> HostCallbacks::take_error() {
    std::optional<ProgramError> e;
    e.swap(error_);
    return e;
}

int64_t HostCallbacks::live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int64_t>(entries_.size());
}

void HostCallbacks::shut_down() {
    std::unordered_map<int64_t, Entry> held;
    std::vector<Value> released;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        shut_down_ = true;
        held.swap(entries_);
        released.swap(released_elsewhere_);
    }
    result_boxer_.reset(); // gives back the callables the last result lent
    result_value_.reset();
    // `held` and `released` are dropped here, outside the lock: a drop may call a plugin.
}

SplStatus HostCallbacks::call_entry(void* self, int64_t id, const SplValue* args, int32_t nargs, SplValue* result) {
    return static_cast<HostCallbacks*>(self)->call(id, args, nargs, result);
}

void HostCallbacks::retain_entry(void* self, int64_t id) {
    auto* host = static_cast<HostCallbacks*>(self);
    std::lock_guard<std::mutex> lock(host->mutex_);
    auto it = host->entries_.find(id);
    if (it != host->entries_.end()) ++it->second.refs;
}

void HostCallbacks::release_entry(void* self, int64_t id) { static_cast<HostCallbacks*>(self)->release(id); }

void HostCallbacks::release(int64_t id) {
    Value doomed;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(id);
        if (it == entries_.end()) {
            if (!shut_down_)
                std::fprintf(stderr, "splrun: a plugin released callable %lld more often than it retained it\n",
                             static_cast<long long>(id));
            return;
        }
        if (--it->second.refs > 0) return;
        doomed = std::move(it->second.fn);
        entries_.erase(it);
        if (std::this_thread::get_id() != thread_) {
            released_elsewhere_.push_back(std::move(doomed));
            return;
        }
    }
    // `doomed` is dropped here, on the interpreter's thread and outside the lock.
}

void HostCallbacks::drop_released() {
    std::vector<Value> released;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (released_elsewhere_.empty()) return;
        released.swap(released_elsewhere_);
    }
}

SplStatus HostCallbacks::fail(SplValue* result, std::string message) {
    result_error_ = std::move(message);
    result->tag = SPL_ERROR;
    result->as.text = SplText{result_error_.c_str(), static_cast<int64_t>(result_error_.size())};
    return SPL_STATUS_ERROR;
}

SplStatus HostCallbacks::call(int64_t id, const SplValue* args, int32_t nargs, SplValue* result) {
    if (std::this_thread::get_id() != thread_)
        return fail(result, "a plugin called a Simple function from a thread other than the interpreter's; the "
                            "interpreter runs Simple code on its own thread only, so nothing was run");
    drop_released();
    Value fn;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(id);
        if (it == entries_.end())
            return fail(result, shut_down_
                                    ? "the interpreter has ended: no Simple function can run"
                                    : "no Simple function has id " + std::to_string(id) + " (never lent, or released)");
        fn = it->second.fn;
    }
    result_boxer_.reset(); // the last result's lends end here (`fn`, if it was one, is held above)
    result_value_.reset();
    // An error kept from an earlier callable that the plugin recovered from (Python caught it)
    // is not this one's: only an error raised inside a running callable is its cause.
    if (depth_ == 0) error_.reset();
    struct Depth {
        int& d;
        explicit Depth(int& depth) : d(depth) { ++d; }
        ~Depth() { --d; }
    } depth(depth_);
    try {
        std::vector<Value> values;
        for (int32_t i = 0; i < nargs; ++i) values.push_back(unbox(args[i], ConvKind::Any, ConvKind::Any));
        result_value_ = runner_->run_callable(fn, values);
    } catch (const ProgramError& e) {
        if (!error_) error_ = e; // the first: later ones are what it caused
        return fail(result, e.message);
    } catch (const std::exception& e) {
        return fail(result, e.what());
    }
    try {
        result_boxer_.emplace(*runner_, nullptr, SourceLoc{});
        *result = result_boxer_->box(result_value_, ConvKind::Any, ConvKind::Any, true, Where{0});
        return SPL_STATUS_OK;
    } catch (const ProgramError& e) { // a result no plugin can take: the plugin's error, not the callable's
        return fail(result, e.message);
    }
}

} // namespace spl
