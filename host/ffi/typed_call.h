// typed_call.h — calling a plugin function through its typed C symbol when every parameter
// and the result are scalars: nothing is boxed on either side of the boundary.
//
// spl_plugin.h fixes a typed symbol's C type by its registered Simple types: i64 -> int64_t,
// f64 -> double, bool -> bool, any and the scalar optionals (i64?, f64?, bool?, any?) ->
// SplValue; no result -> void. A failed typed call sets the calling thread's error, which
// spl_w_error_pending() and spl_w_last_error() report. A host cannot call a C function of a
// type it learns at run time without a caller compiled for that type, so one tiny caller is
// instantiated per shape: up to three parameters (4 + 16 + 64 shapes), times four results.
// Other functions, and calls whose arguments need more than a scalar (text, arrays), take
// the boxed thunk.
#pragma once

#include "spl_plugin.h"

#include <cstdint>

namespace spl {

namespace ast {
struct ExternDecl;
}

enum class Carrier : uint8_t { I64, F64, Bool, Value };
enum class CResultKind : uint8_t { Void, I64, F64, Bool };

union CArg {
    int64_t i;
    double d;
    bool b;
    SplValue v;
};

union CResult {
    int64_t i;
    double d;
    bool b;
};

using TypedCaller = CResult (*)(void (*fn)(void), const CArg* args);

// A plugin's per-thread error state (spl_plugin.h's word-convention functions).
struct PluginErrors {
    int64_t (*pending)(void) = nullptr;
    int64_t (*message)(void) = nullptr; // a char*
};

struct TypedPlan {
    TypedCaller caller = nullptr; // null: call through the boxed thunk
    uint8_t nparams = 0;
    // A parameter: its carrier, and (filled from the declaration, extern_call.cpp) the kinds
    // of value it takes as the boxed path would box them, and whether a typed call may fill it
    // with the declaration's default when the call leaves it out (the plugin's default too).
    enum Accepts : uint8_t { kNil = 1, kBool = 2, kInt = 4, kFloat = 8 };
    struct Param {
        Carrier carrier = Carrier::I64;
        uint8_t accepts = 0;
        bool int_as_float = false; // a Value carrier: an i64 crosses as an f64 (an `f64?` parameter)
        bool fill_default = false;
    };
    Param params[3] = {};
    CResultKind result = CResultKind::Void;
    PluginErrors errors;
};

// How `fn` can be called through its typed symbol; a null caller when it cannot (a parameter
// or result that is not a scalar, more than three parameters, or no error functions). The types
// are read from `decl`, already parsed and canonical, which the plugin loader has checked
// equal to fn's registered ones.
TypedPlan typed_plan(const ast::ExternDecl& decl, const SplFunction& fn, PluginErrors errors);

} // namespace spl
