// Registration of hand-written entry points.
//
// SPL_EXTRA defines the SplFunction of a typed C function and derives its
// boxed thunk from the C signature (AutoBoxed), so a hand-written function
// is written once, as plain typed C, like the generated ones.
#pragma once

#include "generated_support.h"

#include <tuple>
#include <type_traits>
#include <utility>

namespace spl {

template <class T>
T unbox_as(BoxedArgs& in, int i) {
    if constexpr (std::is_same_v<T, int64_t>) return in.i64(i);
    else if constexpr (std::is_same_v<T, double>) return in.f64(i);
    else if constexpr (std::is_same_v<T, bool>) return in.boolean(i);
    else if constexpr (std::is_same_v<T, const char*>) return in.text(i);
    else if constexpr (std::is_same_v<T, SplValue>) return in.value(i);
    else if constexpr (std::is_same_v<T, SplI64Array>) return in.i64_list(i);
    else if constexpr (std::is_same_v<T, SplF64Array>) return in.f64_list(i);
    else if constexpr (std::is_same_v<T, SplBoolArray>) return in.bool_list(i);
    else static_assert(sizeof(T) == 0, "no boxed form for this parameter type");
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

} // namespace spl

#define SPL_EXTRA_ENTRY(fn, signature, return_type, params, nparams)                                     \
    extern const SplFunction spl_extra_##fn;                                                                \
    const SplFunction spl_extra_##fn = {#fn, signature, return_type, params, nparams, nparams,            \
                                        &spl::AutoBoxed<&fn, &spl_extra_##fn>::call,                        \
                                        reinterpret_cast<void (*)(void)>(&fn)};

// SPL_EXTRA(fn, "extern fn ...", "ret", {"p", "i64", nullptr}, ...)
#define SPL_EXTRA(fn, signature, return_type, ...)                                                        \
    static const SplParam spl_params_##fn[] = {__VA_ARGS__};                                               \
    SPL_EXTRA_ENTRY(fn, signature, return_type, spl_params_##fn,                                          \
                    static_cast<int32_t>(sizeof(spl_params_##fn) / sizeof(SplParam)))

#define SPL_EXTRA0(fn, signature, return_type) SPL_EXTRA_ENTRY(fn, signature, return_type, nullptr, 0)
