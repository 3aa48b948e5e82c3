// A minimal Simple-style host for the tests: it loads libspl_torch.so the way
// an interpreter does (dlopen + spl_plugin_open, nothing linked) and calls its
// boxed thunks by name. No LibTorch type appears here.
#pragma once

#include "spl_plugin.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace plugin_host {

// One boxed argument. It owns whatever its SplValue points at (text, list
// items), so a list of Args can be handed to a thunk as is.
class Arg {
public:
    Arg() : Arg(nullptr) {}
    Arg(std::nullptr_t);
    Arg(bool b);
    Arg(int i) : Arg(static_cast<long long>(i)) {}
    Arg(long i) : Arg(static_cast<long long>(i)) {}
    Arg(long long i);
    Arg(double f);
    Arg(const char* s);
    Arg(std::string s);

    static Arg list(std::vector<Arg> items);
    // A value exactly as given, malformed or not (a NULL text pointer, NULL
    // array items): what a buggy host might pass. It owns nothing.
    static Arg raw(const SplValue& value);
    const SplValue& value() const { return value_; }

private:
    SplValue value_{};
    std::shared_ptr<const std::string> text_;
    std::shared_ptr<const std::vector<Arg>> children_;   // keep nested storage alive
    std::shared_ptr<const std::vector<SplValue>> items_; // contiguous, as the ABI wants
};

inline const Arg nil{};
Arg list(std::vector<Arg> items);
Arg ints(const std::vector<int64_t>& values);
Arg floats(const std::vector<double>& values);
Arg bools(const std::vector<bool>& values);

// An owned copy of a boxed result (results live in plugin scratch storage only
// until the next call). The accessors throw std::runtime_error on a wrong tag.
struct Value {
    int32_t tag = SPL_NIL;
    bool b = false;
    int64_t i = 0;
    double f = 0;
    std::string text;
    std::vector<Value> items;

    static Value copy_of(const SplValue& v);

    int64_t as_i64() const;
    double as_f64() const;
    bool as_bool() const;
    const std::string& as_text() const;
    const std::vector<Value>& as_array() const;
    std::vector<int64_t> as_i64_list() const;
    std::vector<double> as_f64_list() const;
    std::vector<bool> as_bool_list() const;
};

// The outcome of a boxed call: the result, or the plugin's error text.
struct Outcome {
    bool ok = false;
    Value value;
    std::string error;
};

class Plugin {
public:
    // The plugin named by $SPL_TORCH_PLUGIN, opened once for the whole run.
    static Plugin& instance();

    const SplPluginInfo& info() const { return *info_; }
    SplPluginOpenFn open_fn() const { return open_; }
    // The registered function; throws when the plugin has none of that name.
    const SplFunction& function(const std::string& name) const;

    // An ATen operator entry point (generated): counted in operators_called().
    Outcome try_op(const std::string& name, const std::vector<Arg>& args);
    Value op(const std::string& name, const std::vector<Arg>& args); // throws on failure
    int64_t op_handle(const std::string& name, const std::vector<Arg>& args) { return op(name, args).as_i64(); }

    // A hand-written runtime function (rt_torch_shape, rt_torch_release, ...).
    Outcome try_runtime(const std::string& name, const std::vector<Arg>& args = {});
    Value runtime(const std::string& name, const std::vector<Arg>& args = {}); // throws on failure

    // The bookkeeping below is thread-safe: tests may call from several threads.
    std::set<std::string> operators_called() const;

    // Every i64 that appeared in a result, in order: the candidates for cleanup.
    size_t results_seen() const;
    std::vector<int64_t> results_since(size_t mark) const;

    int64_t live_handles() { return runtime("rt_torch_live_handles").as_i64(); }
    bool is_live(int64_t h) { return runtime("rt_torch_is_live", {h}).as_bool(); }
    void free(int64_t h) { runtime("rt_torch_release", {h}); }

private:
    Plugin();
    Outcome call(const std::string& name, const std::vector<Arg>& args);
    void remember_integers(const Value& v); // with mutex_ held

    void* library_ = nullptr;
    SplPluginOpenFn open_ = nullptr;
    const SplPluginInfo* info_ = nullptr;
    mutable std::mutex mutex_;
    std::set<std::string> operators_called_;
    std::vector<int64_t> seen_;
};

} // namespace plugin_host
