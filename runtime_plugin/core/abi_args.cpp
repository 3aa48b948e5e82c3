// Converts typed-ABI arguments to ATen arguments, naming the parameter in every error.
#include "core/abi_args.h"

#include "core/shapes_only.h"

#include <ATen/CPUGeneratorImpl.h>

namespace spl {

void bad_argument(const char* name, const std::string& problem) {
    throw SplError(std::string("argument '") + name + "': " + problem);
}

namespace {
[[noreturn]] void bad_tag(const char* name, const char* expected, const SplValue& v) {
    bad_argument(name, std::string("expected ") + expected + ", got " + tag_name(v.tag));
}
} // namespace

void check_list(int64_t len, const void* data, const char* name) {
    if (len < 0) bad_argument(name, "a list is required here, got None (length " + std::to_string(len) + ")");
    if (len > 0 && !data) bad_argument(name, "list data is NULL but its length is " + std::to_string(len));
}

std::vector<at::Tensor> tensor_list(SplI64Array handles, const char* name) {
    check_list(handles.len, handles.data, name);
    std::vector<at::Tensor> out;
    out.reserve(handles.len);
    for (int64_t i = 0; i < handles.len; ++i) out.push_back(tensor(handles.data[i], name));
    return out;
}

c10::List<c10::optional<at::Tensor>> opt_tensor_list(SplI64Array handles, const char* name) {
    check_list(handles.len, handles.data, name);
    c10::List<c10::optional<at::Tensor>> out;
    out.reserve(handles.len);
    for (int64_t i = 0; i < handles.len; ++i) out.push_back(opt_tensor(handles.data[i], name));
    return out;
}

c10::optional<int64_t> opt_int(const SplValue& v, const char* name) {
    if (v.tag == SPL_NIL) return c10::nullopt;
    if (v.tag != SPL_I64) bad_tag(name, "i64 or nil", v);
    return v.as.i;
}

c10::optional<c10::SymInt> opt_sym_int(const SplValue& v, const char* name) {
    auto i = opt_int(v, name);
    if (!i) return c10::nullopt;
    return c10::SymInt(*i);
}

at::IntArrayRef int_list(SplI64Array values, const char* name) {
    check_list(values.len, values.data, name);
    return at::IntArrayRef(values.data, static_cast<size_t>(values.len));
}

c10::SymIntArrayRef sym_int_list(SplI64Array values, const char* name) {
    // SymInt and int64_t share a representation for plain integers; this
    // checks that every value is one (not a heap-allocated symbol tag).
    return compat::as_sym_ints(int_list(values, name));
}

// The optional views are made from an optional of the plain view over the host's array: the
// constructor from a view is marked as keeping its argument's address (it takes containers too).
at::OptionalIntArrayRef opt_int_list(SplI64Array values, const char* name) {
    if (values.len < 0) return {};
    const at::IntArrayRef list = int_list(values, name);
    return at::OptionalIntArrayRef(c10::optional<at::IntArrayRef>(list));
}

at::OptionalSymIntArrayRef opt_sym_int_list(SplI64Array values, const char* name) {
    if (values.len < 0) return {};
    const c10::SymIntArrayRef list = sym_int_list(values, name);
    return at::OptionalSymIntArrayRef(c10::optional<c10::SymIntArrayRef>(list));
}

c10::optional<double> opt_float(const SplValue& v, const char* name) {
    if (v.tag == SPL_NIL) return c10::nullopt;
    if (v.tag == SPL_F64) return v.as.f;
    if (v.tag == SPL_I64) return static_cast<double>(v.as.i);
    bad_tag(name, "f64 or nil", v);
}

c10::optional<at::ArrayRef<double>> opt_float_list(SplF64Array values, const char* name) {
    if (values.len < 0) return c10::nullopt;
    check_list(values.len, values.data, name);
    return at::ArrayRef<double>(values.data, static_cast<size_t>(values.len));
}

c10::optional<bool> opt_bool(const SplValue& v, const char* name) {
    if (v.tag == SPL_NIL) return c10::nullopt;
    if (v.tag != SPL_BOOL) bad_tag(name, "bool or nil", v);
    return v.as.b;
}

std::string_view required_text(const char* s, const char* name) {
    if (!s) bad_argument(name, "text is required here, got NULL (nil)");
    return std::string_view(s);
}

c10::string_view text(const char* s, const char* name) { return c10::string_view(required_text(s, name).data()); }

c10::optional<c10::string_view> opt_text(const char* s) {
    if (!s) return c10::nullopt;
    return c10::string_view(s);
}

at::Scalar scalar(const SplValue& v, const char* name) {
    switch (v.tag) {
    case SPL_I64: return at::Scalar(v.as.i);
    case SPL_F64: return at::Scalar(v.as.f);
    case SPL_BOOL: return at::Scalar(v.as.b);
    default: bad_tag(name, "a number (i64, f64 or bool)", v);
    }
}

c10::optional<at::Scalar> opt_scalar(const SplValue& v, const char* name) {
    if (v.tag == SPL_NIL) return c10::nullopt;
    return scalar(v, name);
}

std::vector<at::Scalar> scalar_list(SplArray values, const char* name) {
    check_list(values.len, values.items, name);
    std::vector<at::Scalar> out;
    out.reserve(values.len);
    for (int64_t i = 0; i < values.len; ++i) {
        const SplValue& v = values.items[i];
        if (v.tag != SPL_I64 && v.tag != SPL_F64 && v.tag != SPL_BOOL)
            bad_argument(name, "element " + std::to_string(i) + " is " + tag_name(v.tag) +
                                   ", not a number (i64, f64 or bool)");
        out.push_back(scalar(v, name));
    }
    return out;
}

c10::ScalarType dtype(const char* s, const char* name) { return parse_dtype(required_text(s, name)); }
c10::optional<c10::ScalarType> opt_dtype(const char* s, const char* name) {
    if (!s) return c10::nullopt;
    return dtype(s, name);
}
c10::Layout layout(const char* s, const char* name) { return parse_layout(required_text(s, name)); }
c10::optional<c10::Layout> opt_layout(const char* s, const char* name) {
    if (!s) return c10::nullopt;
    return layout(s, name);
}
c10::MemoryFormat memory_format(const char* s, const char* name) { return parse_memory_format(required_text(s, name)); }
c10::optional<c10::MemoryFormat> opt_memory_format(const char* s, const char* name) {
    if (!s) return c10::nullopt;
    return memory_format(s, name);
}
c10::Device device(const char* s, const char* name) { return parse_device(required_text(s, name)); }
c10::optional<c10::Device> opt_device(const char* s, const char* name) {
    if (!s) return shapes_only() ? c10::optional<c10::Device>(c10::kMeta) : c10::nullopt;
    return device(s, name);
}

#ifdef SPL_TORCH_HAS_DIMNAME
at::Dimname dimname(const char* s, const char* name) {
    return at::Dimname::fromSymbol(at::Symbol::dimname(std::string(required_text(s, name))));
}

std::vector<at::Dimname> dimname_list(SplTextArray values, const char* name) {
    check_list(values.len, values.data, name);
    std::vector<at::Dimname> out;
    for (int64_t i = 0; i < values.len; ++i) {
        if (!values.data[i]) bad_argument(name, "element " + std::to_string(i) + " is NULL");
        out.push_back(dimname(values.data[i], name));
    }
    return out;
}

OptDimnameList opt_dimname_list(SplTextArray values, const char* name) {
    if (values.len < 0) return {};
    return {dimname_list(values, name)};
}
#endif

// A Generator's handle (lib.torch's Generator objects: draws advance it across calls), or
// a seed for a fresh CPU generator (one call's draws), or nil (the default generator).
c10::optional<at::Generator> opt_generator(const SplValue& seed, const char* name) {
    if (seed.tag == SPL_NIL) return c10::nullopt;
    if (seed.tag != SPL_I64) bad_tag(name, "a Generator, an i64 seed or nil", seed);
    if (HandleTable::instance().holds_generator(seed.as.i)) return HandleTable::instance().generator(seed.as.i, name);
    return at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed.as.i));
}

} // namespace spl
