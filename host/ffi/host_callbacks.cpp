// The host's side of spl_plugin.h's callbacks.
#include "ffi/host_callbacks.h"

#include <cstdio>
#include <utility>

#include "ffi/extern_call.h"
#include "resolve/objects.h"

namespace spl {

bool is_callable(const Value& v) {
    return v.is(ObjType::Function) || v.is(ObjType::BoundMethod) || v.is(ObjType::Builtin) || v.is(ObjType::Extern) ||
           v.is(ObjType::Overloads);
}

HostCallbacks& HostCallbacks::create(CallableRunner& runner) {
    // Never freed (host_callbacks.h), and reachable from here, so that leak checkers see it kept
    // on purpose.
    static std::mutex made_mutex;
    static std::vector<HostCallbacks*>* const made = new std::vector<HostCallbacks*>();
    std::lock_guard<std::mutex> lock(made_mutex);
    made->push_back(new HostCallbacks(runner));
    return *made->back();
}

HostCallbacks::HostCallbacks(CallableRunner& runner)
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

// The callable's result as the plugin reads it; what it points at is kept in this object until
// the next call. Nesting is limited as the plugin's boxed values are.
SplValue HostCallbacks::box_result(const Value& v, int depth) {
    SplValue out{};
    out.tag = SPL_NIL;
    if (v.is_bool()) {
        out.tag = SPL_BOOL;
        out.as.b = v.as_bool();
    } else if (v.is_int()) {
        out.tag = SPL_I64;
        out.as.i = v.as_int();
    } else if (v.is_float()) {
        out.tag = SPL_F64;
        out.as.f = v.as_float();
    } else if (v.is(ObjType::Str)) {
        out.tag = SPL_TEXT;
        out.as.text = SplText{str_of(v).c_str(), static_cast<int64_t>(str_of(v).size())};
    } else if ((v.is(ObjType::Array) || v.is(ObjType::Tuple)) && depth < 64) {
        const auto& items = v.is(ObjType::Array) ? v.as<ArrayObj>()->items : v.as<TupleObj>()->items;
        std::vector<SplValue> boxed;
        for (const Value& item : items) boxed.push_back(box_result(item, depth + 1));
        out.tag = SPL_ARRAY;
        out.as.array = SplArray{boxed.data(), static_cast<int64_t>(boxed.size())};
        result_arrays_.push_back(std::move(boxed)); // moving a vector keeps its buffer where it is
    } else if (!v.is_nil()) {
        throw std::runtime_error("a callable's result cannot be passed to a plugin: a " +
                                 runner_->callable_type_name(v));
    }
    return out;
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
    result_value_.reset();
    result_arrays_.clear();
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
        *result = box_result(result_value_, 0);
        return SPL_STATUS_OK;
    } catch (const ProgramError& e) {
        if (!error_) error_ = e; // the first: later ones are what it caused
        return fail(result, e.message);
    } catch (const std::exception& e) {
        return fail(result, e.what());
    }
}

} // namespace spl
