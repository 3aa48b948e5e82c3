// typed_call.cpp — the typed callers, one per shape, and choosing one for a function.
#include "ffi/typed_call.h"

#include "simple_types.h"
#include "syntax/ast.h"

#include <array>
#include <string>
#include <utility>

namespace spl {

namespace {

template <int K>
struct CarrierType;
template <>
struct CarrierType<0> {
    static int64_t get(const CArg& a) { return a.i; }
};
template <>
struct CarrierType<1> {
    static double get(const CArg& a) { return a.d; }
};
template <>
struct CarrierType<2> {
    static bool get(const CArg& a) { return a.b; }
};
template <>
struct CarrierType<3> {
    static SplValue get(const CArg& a) { return a.v; }
};
template <int K>
using c_type = decltype(CarrierType<K>::get(std::declval<const CArg&>()));

template <int R>
struct ResultType;
template <>
struct ResultType<0> {
    using type = void;
};
template <>
struct ResultType<1> {
    using type = int64_t;
};
template <>
struct ResultType<2> {
    using type = double;
};
template <>
struct ResultType<3> {
    using type = bool;
};

template <int R, int... K, size_t... I>
CResult call_as(void (*f)(void), const CArg* a, std::index_sequence<I...>) {
    using Fn = typename ResultType<R>::type (*)(c_type<K>...);
    const auto fn = reinterpret_cast<Fn>(f);
    CResult r{};
    if constexpr (R == 0)
        fn(CarrierType<K>::get(a[I])...);
    else if constexpr (R == 1)
        r.i = fn(CarrierType<K>::get(a[I])...);
    else if constexpr (R == 2)
        r.d = fn(CarrierType<K>::get(a[I])...);
    else
        r.b = fn(CarrierType<K>::get(a[I])...);
    return r;
}

template <int R, int... K>
CResult caller(void (*f)(void), const CArg* a) {
    return call_as<R, K...>(f, a, std::make_index_sequence<sizeof...(K)>{});
}

// The callers of result kind R for n parameters, indexed by the carriers as base-4 digits.
template <int R, size_t... C>
constexpr std::array<TypedCaller, sizeof...(C)> callers1(std::index_sequence<C...>) {
    return {&caller<R, int(C)>...};
}
template <int R, size_t... C>
constexpr std::array<TypedCaller, sizeof...(C)> callers2(std::index_sequence<C...>) {
    return {&caller<R, int(C / 4), int(C % 4)>...};
}
template <int R, size_t... C>
constexpr std::array<TypedCaller, sizeof...(C)> callers3(std::index_sequence<C...>) {
    return {&caller<R, int(C / 16), int(C / 4 % 4), int(C % 4)>...};
}

template <int R>
TypedCaller caller_for(const TypedPlan::Param* p, size_t n) {
    static constexpr auto one = callers1<R>(std::make_index_sequence<4>{});
    static constexpr auto two = callers2<R>(std::make_index_sequence<16>{});
    static constexpr auto three = callers3<R>(std::make_index_sequence<64>{});
    auto d = [&](size_t i) { return static_cast<size_t>(p[i].carrier); };
    switch (n) {
    case 0: return &caller<R>;
    case 1: return one[d(0)];
    case 2: return two[d(0) * 4 + d(1)];
    case 3: return three[d(0) * 16 + d(1) * 4 + d(2)];
    default: return nullptr;
    }
}

// `t` is a canonical type text, "" for none (a parameter: `any`); its carrier is the plugin's
// table's (simple_types.h). Only scalars and SplValue have a caller here.
bool carrier_of(const std::string& t, Carrier& out) {
    const simple_types::Row* row = simple_types::find(t.empty() ? simple_types::kAny.text : t);
    if (!row) return false;
    switch (row->carrier) {
    case simple_types::Carrier::I64: out = Carrier::I64; return true;
    case simple_types::Carrier::F64: out = Carrier::F64; return true;
    case simple_types::Carrier::Bool: out = Carrier::Bool; return true;
    case simple_types::Carrier::Value: out = Carrier::Value; return true;
    default: return false; // text and lists cross boxed
    }
}

bool result_of(const std::string& t, CResultKind& out) {
    if (t.empty()) {
        out = CResultKind::Void;
        return true;
    }
    const simple_types::Row* row = simple_types::find(t);
    if (!row) return false;
    switch (row->carrier) {
    case simple_types::Carrier::I64: out = CResultKind::I64; return true;
    case simple_types::Carrier::F64: out = CResultKind::F64; return true;
    case simple_types::Carrier::Bool: out = CResultKind::Bool; return true;
    default: return false;
    }
}

} // namespace

TypedPlan typed_plan(const ast::ExternDecl& decl, const SplFunction& fn, PluginErrors errors) {
    TypedPlan plan;
    if (!fn.typed || !errors.pending || !errors.message || fn.nparams > 3) return plan;
    for (int32_t i = 0; i < fn.nparams; ++i)
        if (!carrier_of(decl.params[static_cast<size_t>(i)].type.text, plan.params[i].carrier)) return plan;
    if (!result_of(decl.return_type.text, plan.result)) return plan;
    plan.nparams = static_cast<uint8_t>(fn.nparams);
    plan.errors = errors;
    switch (plan.result) {
    case CResultKind::Void: plan.caller = caller_for<0>(plan.params, plan.nparams); break;
    case CResultKind::I64: plan.caller = caller_for<1>(plan.params, plan.nparams); break;
    case CResultKind::F64: plan.caller = caller_for<2>(plan.params, plan.nparams); break;
    case CResultKind::Bool: plan.caller = caller_for<3>(plan.params, plan.nparams); break;
    }
    return plan;
}

} // namespace spl
