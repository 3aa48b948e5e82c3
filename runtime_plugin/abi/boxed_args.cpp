// Unboxes SplValue arguments for the boxed thunks, validating every value a host passes.
#include "abi/boxed_args.h"

#include "abi/error_guard.h"

#include <cstring>
#include <memory>

namespace spl {
namespace {

bool ends_with_question(const char* type) {
    const size_t n = std::strlen(type);
    return n > 0 && type[n - 1] == '?';
}

} // namespace

void BoxedArgs::refuse_arguments() const {
    const SplFunction& fn = fn_;
    const int32_t nargs = nargs_;
    if (nargs < fn.nrequired || nargs > fn.nparams) {
        std::string expected = fn.nrequired == fn.nparams
                                   ? std::to_string(fn.nparams)
                                   : std::to_string(fn.nrequired) + " to " + std::to_string(fn.nparams);
        throw SplError(std::string(fn.name) + "() takes " + expected + " argument" + (fn.nparams == 1 ? "" : "s") +
                       " but " + std::to_string(nargs) + (nargs == 1 ? " was" : " were") +
                       " given; signature: " + fn.signature);
    }
    throw SplError(std::string(fn.name) + "(): argument array is NULL");
}

const SplValue& BoxedArgs::at(int i) const { return args_[i]; }

const char* BoxedArgs::param_name(int i) const { return names_ ? names_[i] : fn_.params[i].name; }

std::string BoxedArgs::describe(int i) const {
    return std::string(fn_.name) + "(): argument " + std::to_string(i + 1) + " '" + param_name(i) + "'";
}

void BoxedArgs::mismatch(int i, const char* expected) const {
    throw SplError(describe(i) + " must be " + expected + " (" + fn_.params[i].simple_type + "), got " +
                   tag_name(at(i).tag));
}

void BoxedArgs::element_mismatch(int i, const char* expected, int64_t k) const {
    const SplValue& e = at(i).as.array.items[k];
    const std::string kind = e.tag == SPL_TEXT && !e.as.text.ptr ? "text with a NULL pointer" : tag_name(e.tag);
    throw SplError(describe(i) + " must be " + expected + " (" + fn_.params[i].simple_type + "): element " +
                   std::to_string(k) + " is " + kind);
}

// A host builds arrays by hand: a negative length or a NULL item pointer must
// be refused here, before anything sizes a buffer or reads an item by them.
const SplArray& BoxedArgs::checked_array(int i) const {
    const SplArray& a = at(i).as.array;
    if (a.len < 0) throw SplError(describe(i) + ": array length " + std::to_string(a.len) + " is negative");
    if (a.len > 0 && !a.items)
        throw SplError(describe(i) + ": array items are NULL but its length is " + std::to_string(a.len));
    return a;
}

BoxedArgs::Stores& BoxedArgs::stores() {
    if (!stores_) stores_ = std::make_unique<Stores>();
    return *stores_;
}

double BoxedArgs::f64(int i) const {
    const SplValue& v = at(i);
    if (v.tag == SPL_F64) return v.as.f;
    if (v.tag == SPL_I64) return static_cast<double>(v.as.i);
    mismatch(i, "a number");
}

bool BoxedArgs::boolean(int i) const {
    const SplValue& v = at(i);
    if (v.tag != SPL_BOOL) mismatch(i, "a bool");
    return v.as.b;
}

const char* BoxedArgs::text(int i) const {
    const SplValue& v = at(i);
    if (v.tag == SPL_TEXT) {
        // None is SPL_NIL; a NULL pointer under the text tag is a host bug,
        // not a way to leave a required parameter (a dtype, say) unset.
        if (!v.as.text.ptr) throw SplError(describe(i) + ": text pointer is NULL (None is nil)");
        return v.as.text.ptr;
    }
    if (v.tag == SPL_NIL && ends_with_question(fn_.params[i].simple_type)) return nullptr;
    mismatch(i, "text");
}

SplValue BoxedArgs::value(int i) const {
    const SplValue& v = at(i);
    if (v.tag == SPL_ERROR || v.tag < SPL_NIL || (v.tag > SPL_ARRAY && v.tag != SPL_CALLABLE)) mismatch(i, "a value");
    if (v.tag == SPL_NIL && !ends_with_question(fn_.params[i].simple_type)) mismatch(i, "a value, not nil");
    if (v.tag == SPL_TEXT && !v.as.text.ptr) throw SplError(describe(i) + ": text pointer is NULL (None is nil)");
    if (v.tag == SPL_ARRAY) checked_array(i);
    return v;
}

SplArray BoxedArgs::array(int i) const {
    const SplValue& v = at(i);
    if (v.tag != SPL_ARRAY) mismatch(i, "an array");
    return checked_array(i);
}

SplI64Array BoxedArgs::i64_list(int i) {
    const SplValue& v = at(i);
    if (v.tag == SPL_NIL) return SplI64Array{nullptr, -1};
    // A single integer stands for a one-element list, as in PyTorch (`dim=1`);
    // sized_i64_list repeats it for fixed-size lists.
    if (v.tag == SPL_I64) {
        stores().i64.emplace_back(1, v.as.i);
        return SplI64Array{stores().i64.back().data(), 1};
    }
    if (v.tag != SPL_ARRAY) mismatch(i, "an array of integers");
    const SplArray& a = checked_array(i);
    std::vector<int64_t> out(static_cast<size_t>(a.len));
    for (int64_t k = 0; k < a.len; ++k) {
        const SplValue& e = a.items[k];
        if (e.tag == SPL_I64)
            out[k] = e.as.i;
        else if (e.tag == SPL_NIL)
            out[k] = 0; // None in a Tensor?[] list
        else
            element_mismatch(i, "an array of integers", k);
    }
    stores().i64.push_back(std::move(out));
    return SplI64Array{stores().i64.back().data(), static_cast<int64_t>(stores().i64.back().size())};
}

SplI64Array BoxedArgs::sized_i64_list(int i, int64_t size) {
    const SplValue& v = at(i);
    if (v.tag != SPL_I64) return i64_list(i);
    stores().i64.emplace_back(static_cast<size_t>(size), v.as.i);
    return SplI64Array{stores().i64.back().data(), size};
}

SplF64Array BoxedArgs::f64_list(int i) {
    const SplValue& v = at(i);
    if (v.tag == SPL_NIL) return SplF64Array{nullptr, -1};
    if (v.tag != SPL_ARRAY) mismatch(i, "an array of numbers");
    const SplArray& a = checked_array(i);
    std::vector<double> out(static_cast<size_t>(a.len));
    for (int64_t k = 0; k < a.len; ++k) {
        const SplValue& e = a.items[k];
        if (e.tag == SPL_F64)
            out[k] = e.as.f;
        else if (e.tag == SPL_I64)
            out[k] = static_cast<double>(e.as.i);
        else
            element_mismatch(i, "an array of numbers", k);
    }
    stores().f64.push_back(std::move(out));
    return SplF64Array{stores().f64.back().data(), static_cast<int64_t>(stores().f64.back().size())};
}

SplBoolArray BoxedArgs::bool_list(int i) {
    const SplValue& v = at(i);
    if (v.tag == SPL_NIL) return SplBoolArray{nullptr, -1};
    if (v.tag != SPL_ARRAY) mismatch(i, "an array of bools");
    const SplArray& a = checked_array(i);
    auto out = std::make_unique<bool[]>(a.len > 0 ? static_cast<size_t>(a.len) : 1);
    for (int64_t k = 0; k < a.len; ++k) {
        const SplValue& e = a.items[k];
        if (e.tag != SPL_BOOL) element_mismatch(i, "an array of bools", k);
        out[k] = e.as.b;
    }
    stores().boolean.push_back(std::move(out));
    return SplBoolArray{stores().boolean.back().get(), a.len};
}

SplTextArray BoxedArgs::text_list(int i) {
    const SplValue& v = at(i);
    if (v.tag == SPL_NIL) return SplTextArray{nullptr, -1};
    if (v.tag != SPL_ARRAY) mismatch(i, "an array of text");
    const SplArray& a = checked_array(i);
    std::vector<const char*> out(static_cast<size_t>(a.len));
    for (int64_t k = 0; k < a.len; ++k) {
        const SplValue& e = a.items[k];
        if (e.tag != SPL_TEXT || !e.as.text.ptr) element_mismatch(i, "an array of text", k);
        out[k] = e.as.text.ptr;
    }
    stores().text.push_back(std::move(out));
    return SplTextArray{stores().text.back().data(), static_cast<int64_t>(stores().text.back().size())};
}

} // namespace spl
