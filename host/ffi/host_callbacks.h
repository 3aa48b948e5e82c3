// host_callbacks.h — the host's side of spl_plugin.h's callbacks: Simple callables lent to
// plugins (for the call that passes them) or kept by them (retain/release), by id, and the
// one function table every plugin is opened with.
//
// Threads: callables run on the interpreter's thread only; a plugin that calls from another
// thread gets an error, nothing runs. retain/release may come from any thread; a callable
// whose last reference is released off the interpreter's thread is dropped on it, at the
// next lend, call or end of a lend.
//
// Results: boxed as an extern call's arguments are (boxing.h): `Some(x)` as x, a callable
// lent until the plugin's next call into the host (a plugin that keeps it retains it).
//
// Errors: a Simple error inside a callable becomes the plugin's SPL_ERROR (its message, with
// the Simple traceback) and is kept: when the plugin call that ran the callable fails, that
// call raises the kept error, so the program sees the error where it happened. An error the
// plugin recovered from (Python caught it) is forgotten when the next outermost callable runs.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/diagnostics.h"
#include "base/value.h"
#include "ffi/boxing.h"
#include "ffi/plugin_caller.h"
#include "spl_plugin.h"

namespace spl {

class HostCallbacks {
public:
    // Made once per interpreter and never freed: plugins are never unloaded, and a graph node
    // may release its callable after the interpreter is gone (then nothing is run).
    static HostCallbacks& create(PluginCaller& runner);
    HostCallbacks(const HostCallbacks&) = delete;
    HostCallbacks& operator=(const HostCallbacks&) = delete;

    // The table given to every plugin opened (SplHostRequest.callbacks).
    const SplHostCallbacks* table() const { return &table_; }

    // An id for `fn`, lent for one plugin call; end_lend(id) when the call returns.
    int64_t lend(const Value& fn);
    void end_lend(int64_t id);

    // The Simple error a callable raised during the plugin call that just failed, if any
    // (taken: the next failure starts afresh).
    std::optional<ProgramError> take_error();

    // Callables held for plugins now (lent or retained): for leak checks.
    int64_t live() const;

    // The interpreter is ending: every callable still held is dropped now, while it can run
    // `drop` methods; later calls from plugins find nothing and run nothing.
    void shut_down();

private:
    explicit HostCallbacks(PluginCaller& runner);
    static SplStatus call_entry(void* self, int64_t id, const SplValue* args, int32_t nargs, SplValue* result);
    static void retain_entry(void* self, int64_t id);
    static void release_entry(void* self, int64_t id);
    SplStatus call(int64_t id, const SplValue* args, int32_t nargs, SplValue* result);
    void release(int64_t id);
    void drop_released(); // on the interpreter's thread: the values released elsewhere
    SplStatus fail(SplValue* result, std::string message);

    struct Entry {
        Value fn;
        int64_t refs;
    };
    PluginCaller* runner_;
    SplHostCallbacks table_;
    const std::thread::id thread_;
    mutable std::mutex mutex_;
    std::unordered_map<int64_t, Entry> entries_;
    int64_t next_id_ = 1;
    std::vector<Value> released_elsewhere_;
    bool shut_down_ = false;
    std::optional<ProgramError> error_;
    int depth_ = 0; // callables running now, one inside another's plugin call (interpreter's thread)
    // The last result handed to a plugin, kept until the thread's next call (spl_plugin.h): the
    // value, and the Boxer that holds its arrays and lends the callables in it.
    Value result_value_;
    std::optional<Boxer> result_boxer_;
    std::string result_error_;
};

} // namespace spl
