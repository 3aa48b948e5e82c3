// wrapper_fast_path.cpp — recognising bodies that are one plugin call, and running them.
#include "eval/wrapper_fast_path.h"

#include "ffi/extern_call.h"
#include "eval/overloads.h"

#include <algorithm>

namespace spl {

// Where one argument of the extern call comes from.
struct WrapperArg {
    enum class Kind : uint8_t { Slot, SlotField, Constant };
    Kind kind;
    uint32_t slot = 0; // Slot, SlotField: the frame slot (self is slot 0 of a method)
    std::string field; // SlotField: `p.field`
    Value constant;    // Constant: a literal
    // SlotField: the field's index in the class last seen there.
    mutable const ClassObj* cached_class = nullptr;
    mutable int cached_field = -1;
};

struct WrapperPlan {
    const ast::Call* call = nullptr;                // EXTERN(args...)
    std::vector<WrapperArg> args;                   // one per argument of `call`
    const ast::Name* wrap = nullptr;                // C in `C(f: EXTERN(...))`, or null for a bare `EXTERN(...)`
    std::string wrap_field;                         // f ("" when the argument is positional)
    mutable const ClassObj* wrap_checked = nullptr; // a class whose one field is f
    std::vector<const Value*> defaults;             // per parameter: its literal default, or null
    bool converts = false;                          // some parameter converts its argument (to_float, wraps_number)
};

namespace {

constexpr uint32_t kMaxSlots = 9; // self and 8 parameters
constexpr size_t kMaxArgs = 12;

bool is_literal(const ast::Expr& e) {
    switch (e.kind) {
    case ast::ExprKind::Int:
    case ast::ExprKind::Float:
    case ast::ExprKind::Str:
    case ast::ExprKind::Bool:
    case ast::ExprKind::Nil: return true;
    default: return false;
    }
}

// A parameter (or self) by name: its slot, or -1.
int param_slot(const ast::FnProto& p, const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Name) return -1;
    const auto& n = static_cast<const ast::Name&>(e);
    const uint32_t nparams = static_cast<uint32_t>(p.params.size()) + (p.is_method ? 1 : 0);
    if (n.ref != ast::NameKind::Local || n.captured || n.index >= nparams) return -1;
    return static_cast<int>(n.index);
}

bool plan_arg(const ast::FnProto& p, const ast::Expr& e, WrapperArg& out) {
    if (is_literal(e)) {
        out.kind = WrapperArg::Kind::Constant;
        out.constant = static_cast<const ast::Literal&>(e).value;
        return true;
    }
    if (int s = param_slot(p, e); s >= 0) {
        out.kind = WrapperArg::Kind::Slot;
        out.slot = static_cast<uint32_t>(s);
        return true;
    }
    if (e.kind != ast::ExprKind::Member) return false;
    const auto& m = static_cast<const ast::Member&>(e);
    int s = param_slot(p, *m.object);
    if (s < 0) return false;
    out.kind = WrapperArg::Kind::SlotField;
    out.slot = static_cast<uint32_t>(s);
    out.field = m.name;
    return true;
}

// `NAME(args)` with NAME a module-level name, positional arguments only.
const ast::Call* global_call(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call) return nullptr;
    const auto& c = static_cast<const ast::Call&>(e);
    if (c.callee->kind != ast::ExprKind::Name) return nullptr;
    const auto& n = static_cast<const ast::Name&>(*c.callee);
    if (n.ref != ast::NameKind::Global || !n.global || c.builtin_fallback >= 0) return nullptr;
    return &c;
}

std::shared_ptr<const WrapperPlan> make_plan(const ast::FnProto& p) {
    if (p.body.stmts.size() != 1 || !p.captured_params.empty() || p.nslots > kMaxSlots || p.has_rest()) return nullptr;
    const ast::Stmt& s = *p.body.stmts[0];
    if (s.kind != ast::StmtKind::Expr || !static_cast<const ast::ExprStmt&>(s).tail) return nullptr;
    auto plan = std::make_shared<WrapperPlan>();
    const ast::Call* outer = global_call(*static_cast<const ast::ExprStmt&>(s).expr);
    if (!outer || outer->spreads) return nullptr;
    plan->call = outer;
    const ast::Call* inner = outer->args.size() == 1 ? global_call(*outer->args[0]) : nullptr;
    if (inner) { // C(f: EXTERN(...))
        plan->call = inner;
        plan->wrap = static_cast<const ast::Name*>(outer->callee.get());
        if (!outer->arg_names.empty()) plan->wrap_field = outer->arg_names[0];
    }
    if (!plan->call->arg_names.empty() || plan->call->args.size() > kMaxArgs) return nullptr;
    for (const ast::ExprPtr& a : plan->call->args) {
        WrapperArg arg;
        if (!plan_arg(p, *a, arg)) return nullptr;
        plan->args.push_back(std::move(arg));
    }
    for (const ast::Param& prm : p.params) {
        if (prm.default_value && !is_literal(*prm.default_value)) return nullptr;
        plan->defaults.push_back(prm.default_value ? &static_cast<const ast::Literal&>(*prm.default_value).value
                                                   : nullptr);
        plan->converts = plan->converts || prm.to_float || prm.wraps_number;
    }
    return plan;
}

// The wrapping class when it builds its instance from one field, as `C(f: v)` would here.
ClassObj* wrap_class(const WrapperPlan& w, const FunctionObj& fn) {
    const Value& v = *w.wrap->global;
    if (!v.is(ObjType::Class)) return nullptr;
    auto* cls = v.as<ClassObj>();
    if (!cls->ctor.is_nil() && fn.owner != cls) return nullptr;
    if (w.wrap_checked == cls) return cls;
    if (cls->field_names.size() != 1 || (!w.wrap_field.empty() && w.wrap_field != cls->field_names[0])) return nullptr;
    w.wrap_checked = cls; // fields are fixed when the class is made
    return cls;
}

// The extern call of plan `w` with the frame's parameter slots, and the instance of `cls` (when
// the body wraps the result) made from its result.
bool call_planned(Interpreter& in, const WrapperPlan& w, const ast::FnProto& p, ClassObj* cls,
                  const Value* const* slots, SourceLoc loc, Value& result) {
    const Value& callee = *static_cast<const ast::Name&>(*w.call->callee).global;
    // The extern's arguments, positional as written.
    const ExternObj& ex = *callee.as<ExternObj>();
    const size_t ncall = w.args.size();
    const size_t nextern = ex.decl->params.size();
    if (ncall > nextern) return false; // the ordinary path reports it
    const size_t nargs = std::max(ncall, static_cast<size_t>(ex.fn->nrequired));
    if (nargs > kMaxArgs) return false;
    const Value* by_param[kMaxArgs];
    for (size_t j = ncall; j < nargs; ++j) by_param[j] = nullptr; // the declaration's defaults
    for (size_t j = 0; j < ncall; ++j) {
        const WrapperArg& a = w.args[j];
        switch (a.kind) {
        case WrapperArg::Kind::Constant: by_param[j] = &a.constant; break;
        case WrapperArg::Kind::Slot: by_param[j] = slots[a.slot]; break;
        case WrapperArg::Kind::SlotField: {
            const Value& v = *slots[a.slot];
            if (!v.is(ObjType::Instance)) return false;
            const InstanceObj& inst = *v.as<InstanceObj>();
            if (a.cached_class != inst.cls) {
                const int f = inst.cls->field_index(a.field);
                if (f < 0) return false; // a property, a method or an error: the ordinary path says which
                a.cached_class = inst.cls;
                a.cached_field = f;
            }
            by_param[j] = &inst.fields[static_cast<size_t>(a.cached_field)];
            break;
        }
        }
    }
    Value r;
    try {
        r = call_extern_params(in, ex, by_param, nargs, w.call->loc);
    } catch (ProgramError& e) {
        e.trace.push_back(TraceEntry{p.qualified_name, loc});
        throw;
    }
    if (!cls) {
        result = std::move(r);
        return true;
    }
    auto* inst = InstanceObj::create(cls);
    result = Value(inst);
    if (cls->decl->fields[0].to_float && r.is_int()) r = Value::number(static_cast<double>(r.as_int()));
    inst->fields[0] = std::move(r);
    return true;
}

} // namespace

bool run_wrapper_fast(Interpreter& in, const FunctionObj& fn, const Value* self, ArgList& args, SourceLoc loc,
                      bool types_checked, Value& result) {
    const ast::FnProto& p = *fn.proto;
    if (!p.wrapper_planned) {
        if (!in.options().fast_paths) return false;
        p.wrapper = make_plan(p);
        p.wrapper_planned = true;
    }
    const WrapperPlan* w = p.wrapper.get();
    if (!w || args.has_names()) return false;
    const size_t nparams = p.params.size();
    if (static_cast<size_t>(args.count) > nparams) return false;
    const Value& callee = *static_cast<const ast::Name&>(*w->call->callee).global;
    if (!callee.is(ObjType::Extern)) return false;
    ClassObj* cls = nullptr;
    if (w->wrap && !(cls = wrap_class(*w, fn))) return false;

    // What the frame's parameter slots would hold, as invoke fills them; a parameter that
    // converts its argument (`x: f64` given an i64) holds the converted value in `converted`.
    const Value* slots[kMaxSlots];
    const uint32_t base = p.is_method ? 1 : 0;
    if (base) slots[0] = self;
    const bool check = p.checks_args && !types_checked;
    if (!check && !w->converts) { // the common case: each slot is its argument or its default
        for (size_t i = 0; i < nparams; ++i) {
            slots[base + i] = i < static_cast<size_t>(args.count) ? &args.values[i] : w->defaults[i];
            if (!slots[base + i]) return false;
        }
        return call_planned(in, *w, p, cls, slots, loc, result);
    }
    Value converted[2];
    size_t nconverted = 0;
    for (size_t i = 0; i < nparams; ++i) {
        const ast::Param& prm = p.params[i];
        const Value* v;
        if (i < static_cast<size_t>(args.count)) {
            v = &args.values[i];
            bool looked = false;
            if (check && !type_accepts_inline(*prm.spec, *v, false, &looked)) return false;
        } else {
            if (!w->defaults[i]) return false;
            v = w->defaults[i];
        }
        if ((prm.to_float && v->is_int()) || (prm.wraps_number && v->is_number())) {
            if (nconverted == 2) return false;
            Value& c = converted[nconverted++];
            c = prm.to_float ? Value::number(static_cast<double>(v->as_int())) : make_array({*v});
            v = &c;
        }
        slots[base + i] = v;
    }

    return call_planned(in, *w, p, cls, slots, loc, result);
}

} // namespace spl
