// drop_fast_path.cpp — recognising `drop` bodies that are one plugin call, and running them.
#include "eval/drop_fast_path.h"

#include "ffi/extern_call.h"

namespace spl {

namespace {

// The index of the field F in `self.F`, or -1 for any other expression.
int self_field(const ClassObj& cls, const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Member) return -1;
    const auto& m = static_cast<const ast::Member&>(e);
    if (m.object->kind != ast::ExprKind::Name || static_cast<const ast::Name&>(*m.object).name != "self") return -1;
    return cls.field_index(m.name);
}

bool is_zero(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Int) return false;
    const Value& v = static_cast<const ast::Literal&>(e).value;
    return v.is_int() && v.as_int() == 0;
}

// `NAME(self.F)` as a statement, NAME a module-level name: the call, with F in `field`.
const ast::Call* field_call(const ClassObj& cls, const ast::Stmt& s, int* field) {
    if (s.kind != ast::StmtKind::Expr) return nullptr;
    const ast::Expr& e = *static_cast<const ast::ExprStmt&>(s).expr;
    if (e.kind != ast::ExprKind::Call) return nullptr;
    const auto& call = static_cast<const ast::Call&>(e);
    if (call.args.size() != 1 || !call.arg_names.empty() || call.callee->kind != ast::ExprKind::Name) return nullptr;
    const auto& name = static_cast<const ast::Name&>(*call.callee);
    if (name.ref != ast::NameKind::Global || !name.global) return nullptr;
    *field = self_field(cls, *call.args[0]);
    return *field >= 0 ? &call : nullptr;
}

} // namespace

void plan_drop(ClassObj& cls) {
    cls.drop_fast = ClassObj::DropFast{};
    cls.drop_planned = true;
    if (!cls.drop.is(ObjType::Function)) return; // overloads or none
    const ast::FnProto& proto = *cls.drop.as<FunctionObj>()->proto;
    if (!proto.params.empty() || proto.body.stmts.size() != 1) return;
    const ast::Stmt& s = *proto.body.stmts[0];
    ClassObj::DropFast plan;
    if (s.kind == ast::StmtKind::If) {
        const auto& branch = static_cast<const ast::IfStmt&>(s);
        if (branch.conds.size() != 1 || branch.else_block || branch.blocks[0].stmts.size() != 1) return;
        const ast::Expr& cond = *branch.conds[0];
        if (cond.kind != ast::ExprKind::Binary) return;
        const auto& ne = static_cast<const ast::Binary&>(cond);
        if (ne.op != ast::BinOp::Ne || !is_zero(*ne.rhs)) return;
        plan.call = field_call(cls, *branch.blocks[0].stmts[0], &plan.field);
        if (!plan.call || self_field(cls, *ne.lhs) != plan.field) return;
        plan.if_nonzero = true;
    } else {
        plan.call = field_call(cls, s, &plan.field);
        if (!plan.call) return;
    }
    cls.drop_fast = plan;
}

bool run_drop_fast(Interpreter& in, InstanceObj& instance) {
    ClassObj& cls = *instance.cls;
    if (!cls.drop_planned) {
        if (!in.options().fast_paths) return false;
        plan_drop(cls);
    }
    const ClassObj::DropFast& plan = cls.drop_fast;
    if (!plan.call) return false;
    const Value& callee = *static_cast<const ast::Name&>(*plan.call->callee).global;
    const Value* field = &instance.fields[static_cast<size_t>(plan.field)];
    if (!callee.is(ObjType::Extern) || !field->is_int()) return false;
    const ExternObj& ex = *callee.as<ExternObj>();
    // Another count of parameters: the ordinary path reports the surplus or missing argument.
    if (ex.decl->params.empty() || ex.fn->nrequired > 1) return false;
    if (plan.if_nonzero && field->as_int() == 0) return true;
    call_extern_params(in, ex, &field, 1, plan.call->loc);
    return true;
}

} // namespace spl
