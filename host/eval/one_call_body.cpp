// one_call_body.cpp — recognising bodies that are one plugin call, and running them.
#include "eval/one_call_body.h"

#include "ffi/extern_call.h"

#include <algorithm>

namespace spl {

// Where one argument of the extern call comes from.
struct PlannedArg {
    enum class Kind : uint8_t { Slot, SlotField, Constant, Guard }; // Guard: the guard's value, read once
    Kind kind;
    uint32_t slot = 0; // Slot, SlotField: the parameter's slot (self is slot 0 of a method)
    std::string field; // SlotField: `p.field`
    Value constant;    // Constant: a literal
    // SlotField: the field's index in the class last seen there.
    mutable const ClassObj* cached_class = nullptr;
    mutable int cached_field = -1;
};

struct OneCallBody {
    const ast::Call* call = nullptr;                // EXTERN(args...)
    std::vector<PlannedArg> args;                   // one per argument of `call`
    const ast::Name* wrap = nullptr;                // C in `C(f: EXTERN(...))`, or null for a bare `EXTERN(...)`
    std::string wrap_field;                         // f ("" when the argument is positional)
    mutable const ClassObj* wrap_checked = nullptr; // a class whose one field is f
    // `if P.F != 0: EXTERN(...)`: the guard P.F, run only when it holds a non-zero integer.
    bool guarded = false;
    PlannedArg guard;
    bool value = true; // the body's value is the call's (else nil)
};

namespace {

// A parameter (or self) by its resolved name: its slot, or -1.
int param_slot(const ast::FnProto& p, const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Name) return -1;
    const auto& n = static_cast<const ast::Name&>(e);
    const uint32_t nparams = static_cast<uint32_t>(p.params.size()) + (p.is_method ? 1 : 0);
    if (n.ref != ast::NameKind::Local || n.captured || n.index >= nparams) return -1;
    return static_cast<int>(n.index);
}

// `P.F` with P a parameter (or self).
bool plan_field(const ast::FnProto& p, const ast::Expr& e, PlannedArg& out) {
    if (e.kind != ast::ExprKind::Member) return false;
    const auto& m = static_cast<const ast::Member&>(e);
    int s = param_slot(p, *m.object);
    if (s < 0) return false;
    out.kind = PlannedArg::Kind::SlotField;
    out.slot = static_cast<uint32_t>(s);
    out.field = m.name;
    return true;
}

bool plan_arg(const ast::FnProto& p, const ast::Expr& e, PlannedArg& out) {
    if (ast::is_literal(e)) {
        out.kind = PlannedArg::Kind::Constant;
        out.constant = static_cast<const ast::Literal&>(e).value;
        return true;
    }
    if (int s = param_slot(p, e); s >= 0) {
        out.kind = PlannedArg::Kind::Slot;
        out.slot = static_cast<uint32_t>(s);
        return true;
    }
    return plan_field(p, e, out);
}

// `NAME(args)` with NAME a module-level name, positional arguments only.
const ast::Call* global_call(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call) return nullptr;
    const auto& c = static_cast<const ast::Call&>(e);
    if (c.callee->kind != ast::ExprKind::Name) return nullptr;
    const auto& n = static_cast<const ast::Name&>(*c.callee);
    if (n.ref != ast::NameKind::Global || !n.global || c.builtin_fallback >= 0 || c.spreads) return nullptr;
    return &c;
}

bool is_zero(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Int) return false;
    const Value& v = static_cast<const ast::Literal&>(e).value;
    return v.is_int() && v.as_int() == 0;
}

// `if P.F != 0: STMT` with no other branch: STMT, with the guard in `plan`.
const ast::Stmt* guarded_stmt(const ast::FnProto& p, const ast::Stmt& s, OneCallBody& plan) {
    const auto& branch = static_cast<const ast::IfStmt&>(s);
    if (branch.conds.size() != 1 || branch.else_block || branch.blocks[0].stmts.size() != 1) return nullptr;
    const ast::Expr& cond = *branch.conds[0];
    if (cond.kind != ast::ExprKind::Binary) return nullptr;
    const auto& ne = static_cast<const ast::Binary&>(cond);
    if (ne.op != ast::BinOp::Ne || !is_zero(*ne.rhs) || !plan_field(p, *ne.lhs, plan.guard)) return nullptr;
    plan.guarded = true;
    plan.value = branch.tail;
    return branch.blocks[0].stmts[0].get();
}

// The value of reading `a` from the bound slots, or null when it cannot be read this way now.
const Value* read_arg(const PlannedArg& a, const Value* const* slots) {
    switch (a.kind) {
    case PlannedArg::Kind::Constant: return &a.constant;
    case PlannedArg::Kind::Guard: return nullptr; // read by the caller
    case PlannedArg::Kind::Slot: return slots[a.slot];
    case PlannedArg::Kind::SlotField: {
        const Value& v = *slots[a.slot];
        if (!v.is(ObjType::Instance)) return nullptr;
        const InstanceObj& inst = *v.as<InstanceObj>();
        if (a.cached_class != inst.cls) {
            const int f = inst.cls->field_index(a.field);
            if (f < 0) return nullptr; // a property, a method or an error: the walked body says which
            a.cached_class = inst.cls;
            a.cached_field = f;
        }
        return &inst.fields[static_cast<size_t>(a.cached_field)];
    }
    }
    return nullptr;
}

// The wrapping class when `C(f: v)` here builds its instance from v as its first field f, every
// other field taking its literal default (which the constructor would copy in unconverted).
ClassObj* wrap_class(const OneCallBody& w, const FunctionObj& fn) {
    const Value& v = *w.wrap->global;
    if (!v.is(ObjType::Class)) return nullptr;
    auto* cls = v.as<ClassObj>();
    if (!cls->ctor.is_nil() && fn.owner != cls) return nullptr;
    if (w.wrap_checked == cls) return cls;
    if (cls->field_names.empty() || (!w.wrap_field.empty() && w.wrap_field != cls->field_names[0])) return nullptr;
    if (cls->decl->shape_fields) return nullptr; // construct() checks its fields' shapes
    const auto& fields = cls->decl->init.params;
    for (size_t i = 1; i < fields.size(); ++i)
        if (!fields[i].default_value || !ast::is_literal(*fields[i].default_value) || fields[i].to_float)
            return nullptr;
    w.wrap_checked = cls; // fields are fixed when the class is made
    return cls;
}

} // namespace

std::shared_ptr<const OneCallBody> plan_one_call_body(const ast::FnProto& p) {
    if (p.body.stmts.size() != 1) return nullptr;
    auto plan = std::make_shared<OneCallBody>();
    const ast::Stmt* s = p.body.stmts[0].get();
    if (s->kind == ast::StmtKind::If && !(s = guarded_stmt(p, *s, *plan))) return nullptr;
    if (s->kind != ast::StmtKind::Expr) return nullptr;
    const auto& stmt = static_cast<const ast::ExprStmt&>(*s);
    plan->value = plan->value && stmt.tail;
    if (!plan->guarded && !stmt.tail) return nullptr; // a body whose value is dropped: not this form
    const ast::Call* outer = global_call(*stmt.expr);
    if (!outer) return nullptr;
    plan->call = outer;
    const ast::Call* inner = outer->args.size() == 1 ? global_call(*outer->args[0]) : nullptr;
    if (inner) { // C(f: EXTERN(...))
        plan->call = inner;
        plan->wrap = static_cast<const ast::Name*>(outer->callee.get());
        if (!outer->arg_names.empty()) plan->wrap_field = outer->arg_names[0];
    }
    if (!plan->call->arg_names.empty()) return nullptr;
    for (const ast::ExprPtr& a : plan->call->args) {
        PlannedArg arg;
        if (!plan_arg(p, *a, arg)) return nullptr;
        if (plan->guarded && arg.kind == PlannedArg::Kind::SlotField && arg.slot == plan->guard.slot &&
            arg.field == plan->guard.field)
            arg.kind = PlannedArg::Kind::Guard;
        plan->args.push_back(std::move(arg));
    }
    return plan;
}

// Flattened: the typed call (extern_call.h) is inlined here, as on the other hot paths.
[[gnu::flatten]] bool run_one_call_body(Interpreter& in, const OneCallBody& w, const FunctionObj& fn,
                                        const Value* const* slots, Value& result) {
    const Value& callee = *static_cast<const ast::Name&>(*w.call->callee).global;
    if (!callee.is(ObjType::Extern)) return false;
    ClassObj* cls = nullptr;
    if (w.wrap && !(cls = wrap_class(w, fn))) return false;
    const Value* g = nullptr;
    if (w.guarded) {
        g = read_arg(w.guard, slots);
        if (!g || !g->is_int()) return false;
        if (g->as_int() == 0) {
            result = Value();
            return true;
        }
    }
    const ExternObj& ex = *callee.as<ExternObj>();
    const size_t ncall = w.args.size();
    if (ncall > ex.decl->params.size()) return false; // the walked body reports it
    const size_t nargs = std::max(ncall, static_cast<size_t>(ex.fn->nrequired));
    constexpr size_t kArgs = 12;
    if (nargs > kArgs) return false; // an extern of more parameters: the body walked (as fast as any call)
    const Value* by_param[kArgs];
    for (size_t j = ncall; j < nargs; ++j) by_param[j] = nullptr; // the declaration's defaults
    for (size_t j = 0; j < ncall; ++j) {
        const PlannedArg& a = w.args[j];
        if (!(by_param[j] = a.kind == PlannedArg::Kind::Guard ? g : read_arg(a, slots))) return false;
    }
    Value r = call_extern_params(in, ex, by_param, nargs, w.call->loc);
    if (!cls) {
        result = w.value ? std::move(r) : Value();
        return true;
    }
    auto* inst = InstanceObj::create(cls);
    result = Value(inst);
    if (cls->decl->init.params[0].to_float && r.is_int()) r = Value::number(static_cast<double>(r.as_int()));
    inst->fields[0] = std::move(r);
    const auto& fields = cls->decl->init.params;
    for (size_t i = 1; i < fields.size(); ++i)
        inst->fields[i] = static_cast<const ast::Literal&>(*fields[i].default_value).value;
    return true;
}

} // namespace spl
