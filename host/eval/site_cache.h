// site_cache.h — what the interpreter remembers per call, member and operator site, and per
// function: the side table the resolver hands out (resolve/cache_allocator.h) and the syntax
// tree points to, so that the tree itself stays read-only while a hot loop does no name
// lookups and no type matching.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/value.h"

namespace spl {

struct OneCallBody; // one_call_body.cpp

// How the arguments of one call site map onto the parameters of the callee
// it saw last: target[i] is the parameter index of argument i. Computed on
// the first call and reused while the callee stays the same.
struct ArgPlan {
    const void* callee = nullptr;
    std::vector<int32_t> target;
};

// The overload a call site chose for one shape of arguments (overloads.h):
// the set, the kind of each argument (value_kind), and what to re-check.
struct OverloadChoice {
    const void* set = nullptr;    // the OverloadSetObj; null: an empty entry
    Value keep;                   // holds the set, so that its address is never reused while cached
    const void* fn = nullptr;     // the FunctionObj chosen
    std::vector<uintptr_t> kinds; // one per argument
    uint64_t recheck = 0;         // arguments whose elements decided the match: checked again on a hit
    bool resolve_again = false;   // an earlier overload was refused for elements: resolve on every call
    ArgPlan plan;                 // the arguments' parameters in the chosen overload
};

// A few choices per call site (a site usually sees one or two shapes);
// allocated the first time the site calls an overload set.
struct OverloadCache {
    static constexpr size_t kEntries = 4;
    OverloadChoice entries[kEntries];
    uint8_t next = 0; // the entry replaced next when all are taken
};
using OverloadSite = std::unique_ptr<OverloadCache>;

// One site of the syntax tree (ast::Call, MethodCall, Member, Index, Unary, Binary).
struct SiteCache {
    OverloadSite overloads; // the overload chosen per shape of arguments (operators: the method's)
    ArgPlan plan;           // named arguments' parameters in the callee seen last
    // MethodCall: the method of the class seen last; Member: the field's index in it.
    const void* owner = nullptr; // the ClassObj / EnumObj
    uint32_t epoch = 0;          // its method table's version then
    Value method;                // a function or an overload set
    int field = -1;
};

// One function (ast::FnProto): its body's plan, made on its first call.
struct ShapeSignature;

struct BodyCache {
    std::shared_ptr<const OneCallBody> plan;      // the body as one plugin call (one_call_body.h), or null
    std::shared_ptr<const ShapeSignature> shapes; // its shape types (shape_checks.h), or null
    bool planned = false;
    bool frameless = false; // binding for the plan needs no frame
};

} // namespace spl
