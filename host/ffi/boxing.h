// boxing.h — interpreter values as spl_plugin.h's boxed values (SplValue) and back: the one
// conversion for every value that goes to a plugin (an extern call's arguments,
// extern_call.cpp; the result of a callable the plugin called, host_callbacks.cpp) and every
// value that comes back (a plugin's result; the arguments it passes to a callable).
//
//   i64 <-> SPL_I64, f64 <-> SPL_F64 (an i64 widened where f64 is declared), bool,
//   text <-> SPL_TEXT, [T] and tuples <-> SPL_ARRAY, nil <-> SPL_NIL; where any value may go,
//   `Some(x)` goes as x, and a function, closure or bound method as an SPL_CALLABLE id, lent
//   for as long as the Boxer lives (a plugin that keeps it retains it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/source.h"
#include "base/value.h"
#include "ffi/plugin_caller.h"
#include "spl_plugin.h"
#include "syntax/ast.h"

namespace spl {

// How a value crosses the plugin boundary for one extern parameter/return.
enum class ConvKind : uint8_t { Any, Bool, I64, F64, Text, Array, Tuple, None };
struct Conv {
    ConvKind kind = ConvKind::Any;
    ConvKind elem = ConvKind::Any; // arrays: the element kind
    bool optional = false;         // `T?`: nil is accepted
    std::string type;              // the canonical Simple type, for messages
};

// Which value is being converted (an extern's parameter, an element of it); turned into text
// only for an error message, so the hot path builds no strings.
struct Where {
    size_t param;
    int64_t element = -1;
};

bool is_callable(const Value& v);

// Converts interpreter values to boxed values. What they point at (arrays) and the callables
// they lend live as long as the Boxer: one extern call, or until a callable's next result.
class Boxer {
public:
    // `decl`: the extern whose arguments are boxed, named in messages; null: a callable's result.
    Boxer(PluginCaller& in, const ast::ExternDecl* decl, SourceLoc loc) : in_(in), decl_(decl), loc_(loc) {}
    ~Boxer(); // gives back the callables lent (the plugin retained those it keeps)
    Boxer(const Boxer&) = delete;
    Boxer& operator=(const Boxer&) = delete;

    SplValue box(const Value& v, ConvKind kind, ConvKind elem, bool optional, Where what);

private:
    std::string describe(Where w) const;
    [[noreturn]] void mismatch(const Value& v, const char* expected, Where what);
    SplValue text(const Value& v);
    SplValue array(const Value& v, ConvKind elem, Where what);
    SplValue any(const Value& v, Where what);

    PluginCaller& in_;
    const ast::ExternDecl* decl_;
    SourceLoc loc_;
    int depth_ = 0;                             // arrays being boxed, one inside another
    std::vector<std::vector<SplValue>> arrays_; // empty (no allocation) for scalar-only calls
    std::vector<int64_t> lent_;                 // callables lent
};

// A boxed value as an interpreter value: nil, bool, i64 (an f64 where `kind` is F64), f64, text,
// arrays (a tuple where `kind` is Tuple) with their elements by `elem`. Plugin results and the
// arguments a plugin passes to a host callable (host_callbacks.cpp) both come back this way.
Value unbox(const SplValue& r, ConvKind kind, ConvKind elem);

} // namespace spl
