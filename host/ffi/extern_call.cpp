// extern_call.cpp — converting arguments and results at the plugin boundary, and making the call.
// (Matching a call's arguments to the parameters, before: call_extern, eval/calls.cpp.)
#include "ffi/extern_call.h"

#include "base/diagnostics.h"
#include "base/scalar_types.h"

#include <optional>

namespace spl {

namespace {

// How a value of a written type crosses to the plugin. A plain name that is
// no built-in type (a class, a generic, `any`), a dict and a function type
// are passed by the value's own kind; `T?` also lets nil through.
ConvKind conv_kind(const TypeExpr* t, bool& optional) {
    while (t && t->kind == TypeExpr::Kind::Optional) {
        optional = true;
        t = t->args[0].get();
    }
    if (!t) return ConvKind::Any;
    switch (t->kind) {
    case TypeExpr::Kind::List: return ConvKind::Array;
    case TypeExpr::Kind::Tuple: return t->args.empty() ? ConvKind::None : ConvKind::Tuple;
    case TypeExpr::Kind::Named:
        if (t->generic) return ConvKind::Any;
        if (find_int_type(t->name)) return ConvKind::I64;
        if (find_float_type(t->name)) return ConvKind::F64;
        if (t->name == "bool") return ConvKind::Bool;
        if (is_text_type_name(t->name)) return ConvKind::Text;
        return ConvKind::Any;
    default: return ConvKind::Any;
    }
}

Conv conv_for(const TypeRef& type) {
    Conv c;
    c.type = type.empty() ? "any" : type.text;
    c.kind = conv_kind(type.tree.get(), c.optional);
    if (c.kind == ConvKind::Array) {
        const TypeExpr* t = type.tree.get();
        while (t->kind == TypeExpr::Kind::Optional) t = t->args[0].get();
        bool elem_optional = false; // an element's own `?` is not looked at: nil elements go by the element kind
        c.elem = conv_kind(t->args[0].get(), elem_optional);
    }
    return c;
}

const char* kind_name(ConvKind k) {
    switch (k) {
    case ConvKind::I64: return "i64";
    case ConvKind::F64: return "f64";
    case ConvKind::Bool: return "bool";
    case ConvKind::Text: return "text";
    default: return "any";
    }
}

// Which argument (and which element of it) is being converted; turned into
// text only for an error message, so the hot path builds no strings.
struct Where {
    size_t param;
    int64_t element = -1;
};

// Converts interpreter values to boxed values. Nested arrays are stored in
// `arrays_`, which lives as long as the call.
class Boxer {
public:
    Boxer(PluginCaller& in, const ExternObj& ex, SourceLoc loc) : in_(in), ex_(ex), loc_(loc) {}
    // Callables lent for the call are given back when it is over (the plugin retained those it keeps).
    ~Boxer() {
        for (int64_t id : lent_) in_.callbacks->end_lend(id);
    }
    Boxer(const Boxer&) = delete;
    Boxer& operator=(const Boxer&) = delete;

    SplValue box(const Value& v, ConvKind kind, ConvKind elem, bool optional, Where what) {
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

private:
    std::string describe(Where w) const {
        std::string s = "argument `" + ex_.decl->params[w.param].name + "`";
        if (w.element >= 0) s += " element " + std::to_string(w.element);
        return s;
    }
    [[noreturn]] void mismatch(const Value& v, const char* expected, Where what) {
        runtime_error(loc_, describe(what) + " of `" + ex_.decl->name + "` must be " + expected + ", found " +
                                in_.type_name(v));
    }
    SplValue text(const Value& v) {
        SplValue out{};
        out.tag = SPL_TEXT;
        out.as.text.ptr = str_of(v).c_str(); // borrowed: the argument outlives the call
        out.as.text.len = static_cast<int64_t>(str_of(v).size());
        return out;
    }
    SplValue array(const Value& v, ConvKind elem, Where what) {
        const auto& items = v.is(ObjType::Array) ? v.as<ArrayObj>()->items : v.as<TupleObj>()->items;
        std::vector<SplValue> store;
        store.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i)
            store.push_back(
                box(items[i], elem, ConvKind::Any, elem == ConvKind::Any, Where{what.param, static_cast<int64_t>(i)}));
        SplValue out{};
        out.tag = SPL_ARRAY;
        out.as.array.items = store.data();
        out.as.array.len = static_cast<int64_t>(store.size());
        arrays_.push_back(std::move(store)); // moving a vector keeps its buffer where it is
        return out;
    }
    SplValue any(const Value& v, Where what) {
        SplValue out{};
        if (v.is_bool()) return box(v, ConvKind::Bool, ConvKind::Any, false, what);
        if (v.is_int()) return box(v, ConvKind::I64, ConvKind::Any, false, what);
        if (v.is_float()) return box(v, ConvKind::F64, ConvKind::Any, false, what);
        if (v.is(ObjType::Str)) return text(v);
        if (v.is(ObjType::Array) || v.is(ObjType::Tuple)) return array(v, ConvKind::Any, what);
        if (v.is(ObjType::Variant) && v.as<VariantObj>()->type == in_.option_enum())
            return any(v.as<VariantObj>()->payload[0], what);
        if (is_callable(v) && in_.callbacks) {
            out.tag = SPL_CALLABLE;
            out.as.i = in_.callbacks->lend(v);
            lent_.push_back(out.as.i);
            return out;
        }
        runtime_error(loc_, describe(what) + " of `" + ex_.decl->name + "`: a " + in_.type_name(v) +
                                " cannot be passed to a plugin");
        return out;
    }

    PluginCaller& in_;
    const ExternObj& ex_;
    SourceLoc loc_;
    std::vector<std::vector<SplValue>> arrays_; // empty (no allocation) for scalar-only calls
    std::vector<int64_t> lent_;                 // callables lent for this call
};

// Which values a typed parameter takes, by its declared conversion: exactly those the Boxer
// boxes without an error, and as the same tag.
void typed_rules(TypedPlan::Param& tp, const Conv& c) {
    using P = TypedPlan;
    switch (tp.carrier) {
    case Carrier::I64: tp.accepts = c.optional ? 0 : P::kInt; break;
    case Carrier::F64: tp.accepts = c.optional ? 0 : P::kInt | P::kFloat; break;
    case Carrier::Bool: tp.accepts = c.optional ? 0 : P::kBool; break;
    case Carrier::Value:
        switch (c.kind) {
        case ConvKind::Any: tp.accepts = P::kNil | P::kBool | P::kInt | P::kFloat; break;
        case ConvKind::I64: tp.accepts = P::kInt; break;
        case ConvKind::F64:
            tp.accepts = P::kInt | P::kFloat;
            tp.int_as_float = true;
            break;
        case ConvKind::Bool: tp.accepts = P::kBool; break;
        default: tp.accepts = 0; break;
        }
        if (c.optional) tp.accepts |= P::kNil;
        break;
    }
}

} // namespace

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

void prepare_extern(ExternObj& ex, PluginErrors errors) {
    for (const ast::Param& p : ex.decl->params) ex.params.push_back(conv_for(p.type));
    ex.ret = conv_for(ex.decl->return_type);
    ex.typed = typed_plan(*ex.decl, *ex.fn, errors);
    for (size_t i = 0; i < ex.typed.nparams; ++i) {
        TypedPlan::Param& tp = ex.typed.params[i];
        typed_rules(tp, ex.params[i]);
        // A typed call passes every parameter: one the call leaves out takes the declaration's
        // default only where that is the plugin's own default too (the boxed thunk applies the
        // plugin's).
        const char* registered = ex.fn->params[i].default_value;
        const ast::Param& declared = ex.decl->params[i];
        tp.fill_default = declared.default_value && registered && declared.default_text == registered;
    }
}

// When a plugin call failed because a Simple function it called failed (a backward, a hook),
// that function's error is raised: its message, where it happened and its traceback, with a
// note naming the plugin call it ran in. (Only when the plugin's message carries it: an error
// the plugin recovered from is not raised for a later failure.)
void raise_callback_error(PluginCaller& in, const ast::ExternDecl& d, SourceLoc loc, const std::string& message) {
    if (!in.callbacks) return;
    std::optional<ProgramError> e = in.callbacks->take_error();
    if (!e || message.find(e->message) == std::string::npos) return;
    e->notes.push_back("raised inside `" + d.name + "`, which ran it, called at " + loc.str());
    throw *e;
}

[[noreturn]] void typed_call_failed(PluginCaller& in, const ExternObj& ex, SourceLoc loc) {
    const auto* message = reinterpret_cast<const char*>(ex.typed.errors.message());
    const std::string text =
        message && *message ? std::string(message) : "`" + ex.decl->name + "` failed (the plugin gave no message)";
    raise_callback_error(in, *ex.decl, loc, text);
    runtime_error(loc, text);
}

Value call_boxed(PluginCaller& in, const ExternObj& ex, const Value* const* by_param, size_t nargs, SourceLoc loc) {
    const ast::ExternDecl& d = *ex.decl;

    constexpr size_t kInline = 12;
    SplValue inline_argv[kInline];
    std::vector<SplValue> heap_argv;
    SplValue* argv = inline_argv;
    if (nargs > kInline) {
        heap_argv.resize(nargs);
        argv = heap_argv.data();
    }
    Boxer boxer(in, ex, loc);
    for (size_t p = 0; p < nargs; ++p) {
        const Value* v = by_param[p];
        if (!v) { // no argument fills it: the declaration's default
            if (!ex.has_default[p])
                runtime_error(loc, "missing argument `" + d.params[p].name + "` in the call of `" + d.name + "`");
            v = &ex.defaults[p];
        }
        const Conv& c = ex.params[p];
        argv[p] = boxer.box(*v, c.kind, c.elem, c.optional, Where{p});
    }

    SplValue result{};
    result.tag = SPL_NIL;
    SplStatus status = ex.fn->boxed(argv, static_cast<int32_t>(nargs), &result);
    if (status != SPL_STATUS_OK || result.tag == SPL_ERROR) {
        std::string message = result.tag == SPL_ERROR && result.as.text.ptr
                                  ? std::string(result.as.text.ptr, static_cast<size_t>(result.as.text.len))
                                  : "`" + d.name + "` failed (the plugin gave no message)";
        raise_callback_error(in, d, loc, message);
        runtime_error(loc, message);
    }
    return unbox(result, ex.ret.kind, ex.ret.elem);
}

} // namespace spl
