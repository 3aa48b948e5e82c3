// plugin_caller.h — what calling plugins needs of the interpreter, and what a plugin calling
// back into it needs: eval's Interpreter implements it; ffi/ uses it and nothing else of eval.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/value.h"

namespace spl {

class HostCallbacks;

class PluginCaller {
public:
    int64_t extern_calls = 0; // plugin calls made so far: `extern_calls()`, for benchmarks
    // Where a callable passed to a plugin is lent (host_callbacks.h); null: callables cannot be passed.
    HostCallbacks* callbacks = nullptr;
    // A value's type as a message names it: `i64`, `Tensor`, `[i64]`.
    virtual std::string type_name(const Value& v) const = 0;
    // The built-in Option enum: `Some(x)` crosses to a plugin as x.
    virtual const Obj* option_enum() const = 0;
    // Runs a Simple callable for a plugin (host_callbacks.h); a Simple error is a ProgramError.
    virtual Value run_callable(const Value& fn, std::vector<Value>& args) = 0;

protected:
    ~PluginCaller() = default;
};

} // namespace spl
