// Boxed arguments -> typed-ABI arguments, for the boxed thunks.
//
// A thunk receives `nargs` leading arguments; a missing trailing argument
// takes the default the thunk passes in (the schema's default). Every type
// check names the function, the parameter and both types; a malformed value
// (a negative array length, NULL items or a NULL text pointer) is an error
// too, never read.
#pragma once

#include "spl_plugin.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spl {

class BoxedArgs {
public:
    // Checks the arity against the function's registered parameters.
    // `names`, when given, are the parameters' names for messages, one per
    // registered parameter: the schema's names where the Simple ones had to
    // be escaped (`self` for the Simple parameter `self_`).
    BoxedArgs(const SplFunction& fn, const SplValue* args, int32_t nargs, const char* const* names = nullptr)
        : fn_(fn), args_(args), nargs_(nargs), names_(names) {
        if (nargs < fn.nrequired || nargs > fn.nparams || (nargs > 0 && !args)) refuse_arguments();
    }

    bool given(int i) const noexcept { return i < nargs_; }

    // Tensor handles: an i64 (nil reads as 0, i.e. None). Inline: on every tensor argument's path.
    int64_t handle(int i) const {
        const SplValue& v = args_[i];
        if (v.tag == SPL_I64) return v.as.i;
        if (v.tag == SPL_NIL) return 0;
        mismatch(i, "a tensor handle");
    }
    int64_t handle(int i, int64_t fallback) const { return given(i) ? handle(i) : fallback; }
    int64_t i64(int i) const {
        const SplValue& v = args_[i];
        if (v.tag != SPL_I64) mismatch(i, "an integer");
        return v.as.i;
    }
    int64_t i64(int i, int64_t fallback) const { return given(i) ? i64(i) : fallback; }
    double f64(int i) const;
    double f64(int i, double fallback) const { return given(i) ? f64(i) : fallback; }
    bool boolean(int i) const;
    bool boolean(int i, bool fallback) const { return given(i) ? boolean(i) : fallback; }
    // text; nil reads as NULL (None) for optional text.
    const char* text(int i) const;
    const char* text(int i, const char* fallback) const { return given(i) ? text(i) : fallback; }
    // Any value, checked by the parameter's Simple type (Scalar, T?, Generator?).
    SplValue value(int i) const;
    SplValue value(int i, SplValue fallback) const { return given(i) ? value(i) : fallback; }
    SplArray array(int i) const;

    // Lists: copied into storage owned by this object. nil gives len -1 (None).
    SplI64Array i64_list(int i);
    SplI64Array i64_list(int i, SplI64Array fallback) { return given(i) ? i64_list(i) : fallback; }
    // A fixed-size list (`int[2]`): a bare integer stands for all `size`
    // elements, as in PyTorch (`kernel_size=3` is [3, 3]).
    SplI64Array sized_i64_list(int i, int64_t size);
    SplI64Array sized_i64_list(int i, int64_t size, SplI64Array fallback) {
        return given(i) ? sized_i64_list(i, size) : fallback;
    }
    SplF64Array f64_list(int i);
    SplF64Array f64_list(int i, SplF64Array fallback) { return given(i) ? f64_list(i) : fallback; }
    SplBoolArray bool_list(int i);
    SplBoolArray bool_list(int i, SplBoolArray fallback) { return given(i) ? bool_list(i) : fallback; }
    SplTextArray text_list(int i);
    SplTextArray text_list(int i, SplTextArray fallback) { return given(i) ? text_list(i) : fallback; }

private:
    [[noreturn]] void refuse_arguments() const; // a wrong count, or no argument array
    const char* param_name(int i) const;
    std::string describe(int i) const; // "fn(): argument 2 'size'"
    [[noreturn]] void mismatch(int i, const char* expected) const;
    [[noreturn]] void element_mismatch(int i, const char* expected, int64_t k) const;
    const SplArray& checked_array(int i) const;
    const SplValue& at(int i) const;

    // Copies of list arguments, made on the first list: a call with scalars only allocates nothing
    // and its BoxedArgs costs no constructor or destructor work.
    struct Stores {
        std::vector<std::vector<int64_t>> i64;
        std::vector<std::vector<double>> f64;
        std::vector<std::unique_ptr<bool[]>> boolean;
        std::vector<std::vector<const char*>> text;
    };
    Stores& stores();

    const SplFunction& fn_;
    const SplValue* args_;
    int32_t nargs_;
    const char* const* names_;
    std::unique_ptr<Stores> stores_;
};

} // namespace spl
