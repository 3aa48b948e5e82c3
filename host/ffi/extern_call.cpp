// extern_call.cpp — converting arguments and results at the plugin boundary, and making the call.
// (Matching a call's arguments to the parameters, before: call_extern, eval/calls.cpp.)
#include "ffi/extern_call.h"

#include "base/arity.h"
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

// The parameters no argument filled and no default fills: a call that leaves out required ones.
[[noreturn, gnu::cold]] void missing_arguments(const ExternObj& ex, const Value* const* by_param, size_t nargs,
                                               SourceLoc loc) {
    const ast::ExternDecl& d = *ex.decl;
    std::vector<std::string> missing;
    for (size_t p = 0; p < nargs; ++p)
        if (!by_param[p] && !ex.has_default[p]) missing.push_back(d.params[p].name);
    arity_error(loc, Arity{d.name, static_cast<size_t>(ex.fn->nrequired), d.params.size()}, 0, missing);
}

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
    runtime_error_from(ErrorOrigin::Plugin, loc, text);
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
    Boxer boxer(in, ex.decl, loc);
    for (size_t p = 0; p < nargs; ++p) {
        const Value* v = by_param[p];
        if (!v) { // no argument fills it: the declaration's default
            if (!ex.has_default[p]) missing_arguments(ex, by_param, nargs, loc);
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
        runtime_error_from(ErrorOrigin::Plugin, loc, message);
    }
    return unbox(result, ex.ret.kind, ex.ret.elem);
}

} // namespace spl
