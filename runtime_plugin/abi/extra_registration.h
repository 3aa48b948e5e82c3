// Registration of hand-written entry points (ATen-free).
//
// An extra is written once, as a plain typed C function; everything else is
// derived from its C signature, as nanobind derives a binding's signature from
// its C++ types: the boxed thunk (AutoBoxed), each parameter's Simple type, the
// return type and the full `extern fn` text. Only the parameter names must be
// given, since C does not keep them:
//
//     SPL_EXTRA(rt_torch_grad, "t")                     // extern fn rt_torch_grad(t: i64) -> i64
//     SPL_EXTRA_RETURNS(rt_torch_shape, "[i64]", "t")   // an SplValue result with a precise type
//
// Each SPL_EXTRA registers itself (extras_registry.h), so no list elsewhere
// names it; tests/plugin checks spl_stubs/lib/torch/core_ffi.spl against the
// registered signatures.
//
// Plain C++17, no LibTorch: a plugin that does not link LibTorch (libspl_python) registers its
// entry points with it too, and defines spl::word_call (abi/word_call.h) itself. libspl_torch's
// extras include extras/extra_function.h, which adds the whole runtime core.
#pragma once

#include "abi/boxed_args.h"
#include "abi/boxed_values.h"
#include "abi/error_guard.h"
#include "abi/extras_registry.h"
#include "abi/plugin_export.h"
#include "simple_types.h"
#include "spl_plugin.h"
#include "abi/word_call.h"

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace spl {

template <class T>
inline constexpr bool always_false = false;

// The Simple type of each C carrier an extra may use: its row of simple_types.h's table. A
// carrier missing here is a build error naming it. SplValue is any value; a result that is
// really an array (rt_torch_shape) states its type with SPL_EXTRA_RETURNS.
template <class T>
constexpr const char* simple_type_of() {
    if constexpr (std::is_void_v<T>)
        return "";
    else if constexpr (std::is_same_v<T, int64_t>)
        return simple_types::kI64.text.data();
    else if constexpr (std::is_same_v<T, double>)
        return simple_types::kF64.text.data();
    else if constexpr (std::is_same_v<T, bool>)
        return simple_types::kBool.text.data();
    else if constexpr (std::is_same_v<T, const char*>)
        return simple_types::kText.text.data();
    else if constexpr (std::is_same_v<T, SplValue>)
        return simple_types::kAny.text.data();
    else if constexpr (std::is_same_v<T, SplI64Array>)
        return simple_types::kI64List.text.data();
    else if constexpr (std::is_same_v<T, SplF64Array>)
        return simple_types::kF64List.text.data();
    else if constexpr (std::is_same_v<T, SplBoolArray>)
        return simple_types::kBoolList.text.data();
    else if constexpr (std::is_same_v<T, SplTextArray>)
        return simple_types::kTextList.text.data();
    else
        static_assert(always_false<T>, "no Simple type for this C type");
}

template <class T>
T unbox_as(BoxedArgs& in, int i) {
    if constexpr (std::is_same_v<T, int64_t>)
        return in.i64(i);
    else if constexpr (std::is_same_v<T, double>)
        return in.f64(i);
    else if constexpr (std::is_same_v<T, bool>)
        return in.boolean(i);
    else if constexpr (std::is_same_v<T, const char*>)
        return in.text(i);
    else if constexpr (std::is_same_v<T, SplValue>)
        return in.value(i);
    else if constexpr (std::is_same_v<T, SplI64Array>)
        return in.i64_list(i);
    else if constexpr (std::is_same_v<T, SplF64Array>)
        return in.f64_list(i);
    else if constexpr (std::is_same_v<T, SplBoolArray>)
        return in.bool_list(i);
    else if constexpr (std::is_same_v<T, SplTextArray>)
        return in.text_list(i);
    else
        static_assert(always_false<T>, "no boxed form for this parameter type");
}

template <auto Fn, const SplFunction* Entry>
struct AutoBoxed;

template <class R, class... A, R (*Fn)(A...), const SplFunction* Entry>
struct AutoBoxed<Fn, Entry> {
    static SplStatus call(const SplValue* a, int32_t n, SplValue* r) {
        return boxed_call(r, [&](SplValue* result) {
            BoxedArgs in(*Entry, a, n);
            invoke(in, result, std::index_sequence_for<A...>{});
        });
    }

private:
    template <size_t... I>
    static void invoke(BoxedArgs& in, SplValue* result, std::index_sequence<I...>) {
        // Unbox every argument first (braced init is evaluated left to right),
        // so a type error is reported before anything runs.
        std::tuple<A...> args{unbox_as<A>(in, static_cast<int>(I))...};
        if constexpr (std::is_void_v<R>) {
            Fn(std::get<I>(args)...);
            *result = v_nil();
        } else {
            *result = boxed(Fn(std::get<I>(args)...));
        }
    }
};

// Owns the texts an extra's SplFunction points at and registers it. Built
// once, at the plugin's static initialisation: C++17 has no constexpr string
// concatenation of macro arguments, and a few dozen short strings built at
// load time cost nothing next to LibTorch's own start-up.
class ExtraRegistration {
public:
    ExtraRegistration(SplFunction& entry, const char* name, const char* return_type,
                      const std::vector<const char*>& param_names, const std::vector<const char*>& param_types,
                      SplBoxedFn boxed, void (*typed)(void), SplWordFn word);
    ExtraRegistration(const ExtraRegistration&) = delete;
    ExtraRegistration& operator=(const ExtraRegistration&) = delete;

private:
    // What the SplFunction points at. Leaked on purpose, as the handle table
    // is: a host may cache a boxed thunk and call it from its own exit-time
    // destructors, which run after the plugin's, and the thunk reads the
    // parameters. Held here so that leak checkers see it reachable.
    struct Texts {
        std::string signature;
        std::vector<SplParam> params;
    };
    [[maybe_unused]] const Texts* texts_;
};

// The parameter names given to SPL_EXTRA, counted by their type.
template <class... Names>
constexpr std::array<const char*, sizeof...(Names)> param_names(Names... names) {
    static_assert((std::is_convertible_v<Names, const char*> && ...), "SPL_EXTRA: parameter names are text");
    return {names...};
}

template <auto Fn>
struct Extra;

template <class R, class... A, R (*Fn)(A...)>
struct Extra<Fn> {
    // The registered function. Its address is a constant, which the boxed
    // thunk needs as a template argument; its fields are filled in, once, by
    // the ExtraRegistration that describe() returns.
    inline static SplFunction entry{};

    // `return_type`: nullptr derives it from R.
    template <size_t N>
    static ExtraRegistration describe(const char* name, const char* return_type, SplWordFn word,
                                      const std::array<const char*, N>& names) {
        static_assert(N == sizeof...(A), "SPL_EXTRA: give exactly one name per parameter of the C function");
        const std::array<const char*, sizeof...(A)> types{simple_type_of<A>()...};
        return ExtraRegistration(entry, name, return_type ? return_type : simple_type_of<R>(),
                                 {names.begin(), names.end()}, {types.begin(), types.end()},
                                 &AutoBoxed<Fn, &entry>::call, reinterpret_cast<void (*)(void)>(Fn), word);
    }
};

} // namespace spl

// SPL_EXTRA(fn, "param", ...): registers the typed C function `fn`, with one
// name per C parameter, and defines its word adapter spl_w_<fn> (abi/word_call.h). SPL_EXTRA_RETURNS(fn, "simple
// type", "param", ...) states the Simple return type instead of deriving it, for an SplValue result. (C++17's
// guaranteed copy elision lets the non-copyable registration be initialised from describe().)
#define SPL_EXTRA_RETURNS(fn, return_type, ...)                                                                        \
    extern "C" SPL_TORCH_EXPORT int64_t spl_w_##fn(SPL_WORD_PARAMS) { return SPL_WORD_CALL(spl::Extra<&fn>::entry); }  \
    static const spl::ExtraRegistration spl_extra_registration_##fn =                                                  \
        spl::Extra<&fn>::describe(#fn, return_type, &spl_w_##fn, spl::param_names(__VA_ARGS__));
#define SPL_EXTRA(fn, ...) SPL_EXTRA_RETURNS(fn, nullptr, __VA_ARGS__)
