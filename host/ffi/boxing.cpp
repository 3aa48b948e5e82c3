// Interpreter values to boxed values and back (boxing.h).
#include "ffi/boxing.h"

#include "base/diagnostics.h"
#include "ffi/host_callbacks.h"
#include "resolve/objects.h"

namespace spl {

namespace {

// How deeply arrays may nest inside one value (an array that holds itself would not end).
constexpr int kMaxDepth = 64;

const char* kind_name(ConvKind k) {
    switch (k) {
    case ConvKind::I64: return "i64";
    case ConvKind::F64: return "f64";
    case ConvKind::Bool: return "bool";
    case ConvKind::Text: return "text";
    default: return "any";
    }
}

} // namespace

bool is_callable(const Value& v) {
    return v.is(ObjType::Function) || v.is(ObjType::BoundMethod) || v.is(ObjType::Builtin) || v.is(ObjType::Extern) ||
           v.is(ObjType::Overloads);
}

Boxer::~Boxer() {
    for (int64_t id : lent_) in_.callbacks->end_lend(id);
}

SplValue Boxer::box(const Value& v, ConvKind kind, ConvKind elem, bool optional, Where what) {
    SplValue out{};
    if (v.is_nil()) {
        if (!optional && kind != ConvKind::Any) mismatch(v, kind_name(kind), what);
        out.tag = SPL_NIL;
        return out;
    }
    switch (kind) {
    case ConvKind::I64:
        if (!v.is_int()) mismatch(v, "i64", what);
        out.tag = SPL_I64;
        out.as.i = v.as_int();
        return out;
    case ConvKind::F64:
        if (!v.is_number()) mismatch(v, "f64", what);
        out.tag = SPL_F64;
        out.as.f = v.to_double();
        return out;
    case ConvKind::Bool:
        if (!v.is_bool()) mismatch(v, "bool", what);
        out.tag = SPL_BOOL;
        out.as.b = v.as_bool();
        return out;
    case ConvKind::Text:
        if (!v.is(ObjType::Str)) mismatch(v, "text", what);
        return text(v);
    case ConvKind::Array:
    case ConvKind::Tuple:
        if (!v.is(ObjType::Array) && !v.is(ObjType::Tuple)) mismatch(v, "an array", what);
        return array(v, kind == ConvKind::Array ? elem : ConvKind::Any, what);
    default: return any(v, what);
    }
}

std::string Boxer::describe(Where w) const {
    if (!decl_) return "a callable's result";
    std::string s = "argument `" + decl_->params[w.param].name + "`";
    if (w.element >= 0) s += " element " + std::to_string(w.element);
    return s + " of `" + decl_->name + "`";
}

void Boxer::mismatch(const Value& v, const char* expected, Where what) {
    runtime_error(loc_, describe(what) + " must be " + expected + ", found " + in_.type_name(v));
}

SplValue Boxer::text(const Value& v) {
    SplValue out{};
    out.tag = SPL_TEXT;
    out.as.text.ptr = str_of(v).c_str(); // borrowed: the value outlives the Boxer
    out.as.text.len = static_cast<int64_t>(str_of(v).size());
    return out;
}

SplValue Boxer::array(const Value& v, ConvKind elem, Where what) {
    if (depth_ >= kMaxDepth)
        runtime_error(loc_, describe(what) + ": arrays nested more than " + std::to_string(kMaxDepth) +
                                " deep cannot be passed to a plugin");
    ++depth_;
    const auto& items = v.is(ObjType::Array) ? v.as<ArrayObj>()->items : v.as<TupleObj>()->items;
    std::vector<SplValue> store;
    store.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i)
        store.push_back(
            box(items[i], elem, ConvKind::Any, elem == ConvKind::Any, Where{what.param, static_cast<int64_t>(i)}));
    --depth_;
    SplValue out{};
    out.tag = SPL_ARRAY;
    out.as.array.items = store.data();
    out.as.array.len = static_cast<int64_t>(store.size());
    arrays_.push_back(std::move(store)); // moving a vector keeps its buffer where it is
    return out;
}

SplValue Boxer::any(const Value& v, Where what) {
    SplValue out{};
    if (v.is_bool()) return box(v, ConvKind::Bool, ConvKind::Any, false, what);
    if (v.is_int()) return box(v, ConvKind::I64, ConvKind::Any, false, what);
    if (v.is_float()) return box(v, ConvKind::F64, ConvKind::Any, false, what);
    if (v.is(ObjType::Str)) return text(v);
    if (v.is(ObjType::Array) || v.is(ObjType::Tuple)) return array(v, ConvKind::Any, what);
    if (v.is(ObjType::Variant) && v.as<VariantObj>()->type == in_.option_enum())
        return box(v.as<VariantObj>()->payload[0], ConvKind::Any, ConvKind::Any, true, what);
    if (is_callable(v) && in_.callbacks) {
        out.tag = SPL_CALLABLE;
        out.as.i = in_.callbacks->lend(v);
        lent_.push_back(out.as.i);
        return out;
    }
    runtime_error(loc_, describe(what) + ": a " + in_.type_name(v) + " cannot be passed to a plugin");
}

Value unbox(const SplValue& r, ConvKind kind, ConvKind elem) {
    switch (r.tag) {
    case SPL_NIL: return Value();
    case SPL_BOOL: return Value::boolean(r.as.b);
    case SPL_I64:
        if (kind == ConvKind::F64) return Value::number(static_cast<double>(r.as.i));
        return Value::integer(r.as.i);
    case SPL_F64: return Value::number(r.as.f);
    case SPL_TEXT: return make_str(std::string(r.as.text.ptr, static_cast<size_t>(r.as.text.len)));
    case SPL_ARRAY: {
        std::vector<Value> items;
        items.reserve(static_cast<size_t>(r.as.array.len));
        for (int64_t i = 0; i < r.as.array.len; ++i) items.push_back(unbox(r.as.array.items[i], elem, ConvKind::Any));
        return kind == ConvKind::Tuple ? make_tuple(std::move(items)) : make_array(std::move(items));
    }
    default: return Value();
    }
}

} // namespace spl
