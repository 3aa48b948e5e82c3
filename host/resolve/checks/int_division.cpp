// int_division.cpp — integer divisions whose result flows into a float (int_division.h).
//
// Types by the text alone, on a four-value lattice: Bottom (no binding seen yet), Int, Float,
// Unknown. A name's type is the join of every value bound or assigned to it, found by
// iterating the walk until no name's type changes (a `var i = 0` with `i = i + 1` stays Int; a
// `var x = 0` later given `x + 0.5` becomes Unknown). Names are scoped here as the resolver
// scopes them (blocks, functions, lambdas; functions' bodies after the block that declares
// them, so a module's names are all seen), without resolving imports: an imported name, a
// lambda's parameter, a field read off anything but `self` is Unknown.
#include "resolve/checks/int_division.h"

#include <algorithm>
#include <unordered_map>

#include "base/scalar_types.h"
#include "syntax/expr_text.h"

namespace spl {

using namespace ast;

namespace {

enum class T : unsigned char { Bottom, Int, Float, Unknown };

T join(T a, T b) {
    if (a == T::Bottom) return b;
    if (b == T::Bottom) return a;
    return a == b ? a : T::Unknown;
}

T declared(const TypeExpr* t) {
    if (!t || t->kind != TypeExpr::Kind::Named || t->generic) return T::Unknown;
    if (find_int_type(t->name)) return T::Int;
    if (find_float_type(t->name)) return T::Float;
    return T::Unknown;
}
T declared(const TypeRef& t) { return declared(t.tree.get()); }

bool is_arithmetic(BinOp op) {
    return op == BinOp::Add || op == BinOp::Sub || op == BinOp::Mul || op == BinOp::Div || op == BinOp::Mod ||
           op == BinOp::Pow;
}

bool is_comparison(BinOp op) {
    return op == BinOp::Eq || op == BinOp::Ne || op == BinOp::Lt || op == BinOp::Le || op == BinOp::Gt ||
           op == BinOp::Ge;
}

// The type of `a OP b` from its operands'.
T arithmetic(BinOp op, T a, T b) {
    if (!is_arithmetic(op) || a == T::Unknown || b == T::Unknown) return T::Unknown;
    if (a == T::Float || b == T::Float) return T::Float;
    if (a == T::Bottom || b == T::Bottom) return T::Bottom;
    return op == BinOp::Pow ? T::Unknown : T::Int; // `2 ** -1` is 0.5
}

// Where an expression's value goes.
struct Flow {
    enum Kind : unsigned char { None, Float, Operand } kind = None;
    const Binary* consumer = nullptr; // Operand
    bool lhs = false;
};
constexpr Flow kNone{};
constexpr Flow kFloat{Flow::Float, nullptr, false};

class Analyzer {
public:
    Analyzer(const Module& m, const CalleeTypes* callees) : m_(m), callees_(callees) {}

    std::vector<DivisionSite> run() {
        constexpr int kMaxRounds = 32; // each round raises some name's type; a program needs a few
        bool stable = false;
        for (int round = 0; round < kMaxRounds && !stable; ++round) {
            walk_round();
            stable = next_ == vars_;
            vars_ = std::move(next_);
        }
        if (!stable) { // never met: then nothing is known of any name
            for (auto& [key, type] : vars_) type = T::Unknown;
            walk_round();
        }
        std::sort(sites_.begin(), sites_.end(), [](const DivisionSite& a, const DivisionSite& b) {
            return a.div->loc.line != b.div->loc.line ? a.div->loc.line < b.div->loc.line
                                                      : a.div->loc.col < b.div->loc.col;
        });
        return std::move(sites_);
    }

private:
    void walk_round() {
        next_.clear();
        sites_.clear();
        scopes_.clear();
        fns_.clear();
        classes_.clear();
        for (const StmtPtr& s : m_.init.body.stmts)
            if (s->kind == StmtKind::Class) {
                const auto& c = static_cast<const ClassDecl&>(*s);
                classes_[c.name] = &c;
            }
        walk_block(m_.init.body, kNone);
    }

    // ---- names

    void bind(const void* key, const std::string& name, T type) {
        scopes_.back()[name] = key;
        T& t = next_[key];
        t = join(t, type);
    }
    void bind_pattern(const Pattern& p, T type) {
        if (p.kind == PatKind::Bind) return bind(&p, p.name, type);
        for (const PatternPtr& sub : p.subs) bind_pattern(*sub, T::Unknown);
    }
    const void* lookup(const std::string& name) const {
        for (size_t i = scopes_.size(); i-- > 0;)
            if (auto it = scopes_[i].find(name); it != scopes_[i].end()) return it->second;
        return nullptr;
    }
    T name_type(const std::string& name) const {
        const void* key = lookup(name);
        if (!key) return T::Unknown;
        auto it = vars_.find(key);
        return it == vars_.end() ? T::Bottom : it->second;
    }
    // A builtin, when no binding hides it.
    bool is_builtin(const Expr& callee, const char* name) const {
        return callee.kind == ExprKind::Name && static_cast<const Name&>(callee).name == name && !lookup(name);
    }
    // The function a call names: a `fn` declared once in scope, or a method of `self`'s class.
    const FnProto* callee_proto(const Expr& callee) const {
        if (callee.kind != ExprKind::Name) return nullptr;
        auto it = fns_.find(lookup(static_cast<const Name&>(callee).name));
        return it == fns_.end() ? nullptr : it->second;
    }
    const FnProto* self_method(const MethodCall& m) const {
        if (!is_self(*m.object)) return nullptr;
        const FnProto* found = nullptr;
        for (const auto& p : cls_->methods)
            if (p->name == m.name) {
                if (found) return nullptr; // overloaded: which one runs depends on the arguments
                found = p.get();
            }
        return found;
    }
    // The declarations of an imported function or class a call names (callee_types.h).
    const std::vector<const FnProto*>* imported_callee(const Expr& callee) const {
        if (!callees_ || callee.kind != ExprKind::Name) return nullptr;
        return callees_->find(lookup(static_cast<const Name&>(callee).name));
    }
    // ... or a function or class of an imported module a method call names (`lr_scheduler.LambdaLR(...)`).
    const std::vector<const FnProto*>* imported_member(const MethodCall& m) const {
        if (!callees_ || m.object->kind != ExprKind::Name) return nullptr;
        const void* key = lookup(static_cast<const Name&>(*m.object).name);
        return key ? callees_->find_member(key, m.name) : nullptr;
    }
    bool is_self(const Expr& e) const {
        return cls_ && e.kind == ExprKind::Name && static_cast<const Name&>(e).name == "self" && lookup("self") == cls_;
    }

    // ---- types

    T type_of(const Expr& e) const {
        switch (e.kind) {
        case ExprKind::Int: return T::Int;
        case ExprKind::Float: return T::Float;
        case ExprKind::Name: return name_type(static_cast<const Name&>(e).name);
        case ExprKind::Unary: {
            const auto& u = static_cast<const Unary&>(e);
            return u.op == UnaryOp::Not ? T::Unknown : type_of(*u.operand);
        }
        case ExprKind::Binary: {
            const auto& b = static_cast<const Binary&>(e);
            return arithmetic(b.op, type_of(*b.lhs), type_of(*b.rhs));
        }
        case ExprKind::Cast: return declared(static_cast<const Cast&>(e).type);
        case ExprKind::Call: {
            const auto& c = static_cast<const Call&>(e);
            if (c.spreads) return T::Unknown;
            if (is_builtin(*c.callee, "len")) return T::Int;
            if (c.args.size() == 1 && is_builtin(*c.callee, "abs")) return type_of(*c.args[0]);
            if (c.args.size() >= 2 && (is_builtin(*c.callee, "min") || is_builtin(*c.callee, "max"))) {
                T t = T::Bottom;
                for (const ExprPtr& a : c.args) t = join(t, type_of(*a));
                return t; // min(1.0, 0) is the i64 0: mixed is Unknown
            }
            if (const FnProto* p = callee_proto(*c.callee)) return declared(p->return_type);
            return T::Unknown;
        }
        case ExprKind::MethodCall: {
            const auto& m = static_cast<const MethodCall&>(e);
            if (m.spreads) return T::Unknown;
            if (const FnProto* p = self_method(m)) return declared(p->return_type);
            if (m.name == "to_i64" && m.args.empty()) return T::Int;
            if (m.name == "to_f64" && m.args.empty()) return T::Float;
            if (m.name == "fdiv" && m.args.size() == 1)
                return arithmetic(BinOp::Div, type_of(*m.object), type_of(*m.args[0]));
            return T::Unknown;
        }
        case ExprKind::Member: {
            const auto& m = static_cast<const Member&>(e);
            if (!is_self(*m.object)) return T::Unknown;
            for (const Param& f : cls_->init.params)
                if (f.name == m.name) return declared(f.type);
            return T::Unknown;
        }
        default: return T::Unknown;
        }
    }

    // ---- the walk

    void record(const Binary& div, Flow flow, bool proven_int) {
        DivisionSite s;
        s.div = &div;
        s.flow = flow.kind == Flow::Float ? DivisionSite::Flow::Float : DivisionSite::Flow::Operand;
        s.consumer = flow.consumer;
        s.lhs = flow.lhs;
        s.proven_int = proven_int;
        sites_.push_back(s);
    }

    // Where an operand of `b` goes, given its sibling's type.
    static Flow operand_flow(const Binary& b, Flow outer, T sibling, bool lhs) {
        if (sibling == T::Float) return kFloat;
        if (sibling == T::Int) // an i64 result that meets a float further out
            return outer.kind == Flow::Float &&
                           (b.op == BinOp::Add || b.op == BinOp::Sub || b.op == BinOp::Mul || b.op == BinOp::Mod)
                       ? kFloat
                       : kNone;
        // Not known here: the run decides, at an ordering or arithmetic (`==` and `!=` are left
        // to what the text tells: a run checks them for nil, and would pay for it).
        if (b.op == BinOp::Eq || b.op == BinOp::Ne) return kNone;
        return Flow{Flow::Operand, &b, lhs};
    }

    // An argument's flow into a parameter of a known function (declared f64: it becomes one).
    static Flow param_flow(const FnProto* p, size_t index, const std::string& name) {
        if (!p || p->has_rest()) return kNone;
        const Param* param = nullptr;
        if (name.empty()) {
            if (index < p->params.size()) param = &p->params[index]; // `self` is not among them
        } else {
            for (const Param& q : p->params)
                if (q.name == name) param = &q;
        }
        return param && declared(param->type) == T::Float ? kFloat : kNone;
    }

    void visit_args(const std::vector<ExprPtr>& args, const std::vector<std::string>& names, bool spreads,
                    const FnProto* callee, const std::vector<const FnProto*>* imported = nullptr) {
        size_t positional = 0; // positional arguments before args[i]
        for (size_t i = 0; i < args.size(); ++i) {
            const std::string name = i < names.size() ? names[i] : "";
            // A lambda given to an imported parameter declared `fn(i64) -> f64`: its parameters
            // and value have those types.
            if (imported && !spreads && args[i]->kind == ExprKind::Lambda) {
                if (const TypeExpr* fn_type = CalleeTypes::function_param(*imported, positional, name)) {
                    positional += name.empty();
                    walk_fn(*static_cast<const Lambda&>(*args[i]).proto, cls_, fn_type);
                    continue;
                }
            }
            visit(*args[i], spreads ? kNone : param_flow(callee, i, name));
            positional += name.empty();
        }
    }

    void visit(const Expr& e, Flow flow) {
        switch (e.kind) {
        case ExprKind::Binary: {
            const auto& b = static_cast<const Binary&>(e);
            if (!is_arithmetic(b.op) && !is_comparison(b.op)) {
                visit(*b.lhs, kNone);
                visit(*b.rhs, kNone);
                return;
            }
            const T lt = type_of(*b.lhs), rt = type_of(*b.rhs);
            visit(*b.lhs, operand_flow(b, flow, rt, true));
            visit(*b.rhs, operand_flow(b, flow, lt, false));
            if (b.op == BinOp::Div && flow.kind != Flow::None) record(b, flow, lt == T::Int && rt == T::Int);
            return;
        }
        case ExprKind::Unary: {
            const auto& u = static_cast<const Unary&>(e);
            return visit(*u.operand, u.op == UnaryOp::Not ? kNone : flow);
        }
        case ExprKind::Cast: {
            const auto& c = static_cast<const Cast&>(e);
            return visit(*c.operand, declared(c.type) == T::Float ? kFloat : kNone);
        }
        case ExprKind::Call: {
            const auto& c = static_cast<const Call&>(e);
            visit(*c.callee, kNone);
            if (!c.spreads && c.args.size() >= 2 && (is_builtin(*c.callee, "min") || is_builtin(*c.callee, "max"))) {
                for (size_t i = 0; i < c.args.size(); ++i) {
                    bool beside_float = flow.kind == Flow::Float; // the result itself meets a float
                    for (size_t j = 0; j < c.args.size(); ++j)
                        if (j != i && type_of(*c.args[j]) == T::Float) beside_float = true;
                    visit(*c.args[i], beside_float ? kFloat : kNone);
                }
                return;
            }
            return visit_args(c.args, c.arg_names, c.spreads, callee_proto(*c.callee), imported_callee(*c.callee));
        }
        case ExprKind::MethodCall: {
            const auto& m = static_cast<const MethodCall&>(e);
            visit(*m.object, kNone);
            return visit_args(m.args, m.arg_names, m.spreads, self_method(m), imported_member(m));
        }
        case ExprKind::Member: return visit(*static_cast<const Member&>(e).object, kNone);
        case ExprKind::Index: {
            const auto& x = static_cast<const Index&>(e);
            visit(*x.object, kNone);
            for (const ExprPtr& i : x.indices) visit(*i, kNone);
            return;
        }
        case ExprKind::Slice: {
            const auto& s = static_cast<const Slice&>(e);
            for (const ExprPtr* part : {&s.start, &s.stop, &s.step})
                if (*part) visit(**part, kNone);
            return;
        }
        case ExprKind::Logical: {
            const auto& l = static_cast<const Logical&>(e);
            visit(*l.lhs, kNone);
            return visit(*l.rhs, kNone);
        }
        case ExprKind::Range: {
            const auto& r = static_cast<const Range&>(e);
            visit(*r.start, kNone);
            return visit(*r.end, kNone);
        }
        case ExprKind::Try: return visit(*static_cast<const Try&>(e).operand, kNone);
        case ExprKind::Interp:
            for (const ExprPtr& x : static_cast<const Interp&>(e).exprs) visit(*x, kNone);
            return;
        case ExprKind::Array:
            for (const ExprPtr& x : static_cast<const ArrayLit&>(e).elems) visit(*x, kNone);
            return;
        case ExprKind::Tuple:
            for (const ExprPtr& x : static_cast<const TupleLit&>(e).elems) visit(*x, kNone);
            return;
        case ExprKind::Dict: {
            const auto& d = static_cast<const DictLit&>(e);
            for (size_t i = 0; i < d.keys.size(); ++i) {
                visit(*d.keys[i], kNone);
                visit(*d.values[i], kNone);
            }
            return;
        }
        case ExprKind::Lambda: return walk_fn(*static_cast<const Lambda&>(e).proto, cls_);
        case ExprKind::If: {
            const auto& i = static_cast<const IfExpr&>(e);
            for (size_t k = 0; k < i.conds.size(); ++k) {
                visit(*i.conds[k], kNone);
                walk_block(i.blocks[k], flow);
            }
            if (i.else_block) walk_block(*i.else_block, flow);
            return;
        }
        case ExprKind::Match: {
            const auto& m = static_cast<const MatchExpr&>(e);
            visit(*m.subject, kNone);
            return walk_arms(m.arms, flow);
        }
        case ExprKind::Comprehension: {
            const auto& c = static_cast<const Comprehension&>(e);
            scopes_.emplace_back();
            for (const CompClause& clause : c.clauses) {
                if (clause.cond) {
                    visit(*clause.cond, kNone);
                    continue;
                }
                visit(*clause.iter, kNone);
                bind_pattern(*clause.pattern, loop_type(*clause.iter));
            }
            if (c.elem) visit(*c.elem, kNone);
            if (c.value) visit(*c.value, kNone);
            scopes_.pop_back();
            return;
        }
        default: return; // literals, names
        }
    }

    // What a `for` over `iter` binds: an i64 over a range (`0..n`, `range(n)`).
    T loop_type(const Expr& iter) const {
        if (iter.kind == ExprKind::Range) return T::Int;
        if (iter.kind == ExprKind::Call && is_builtin(*static_cast<const Call&>(iter).callee, "range")) return T::Int;
        return T::Unknown;
    }

    void walk_arms(const std::vector<MatchArm>& arms, Flow tail) {
        for (const MatchArm& arm : arms) {
            scopes_.emplace_back();
            bind_pattern(*arm.pattern, T::Unknown);
            if (arm.guard) visit(*arm.guard, kNone);
            walk_block(arm.body, tail);
            scopes_.pop_back();
        }
    }

    struct Deferred {
        const FnProto* fn;
        const ClassDecl* cls;
    };

    // A block in its own scope; `tail` is where its last expression's value goes. Functions and
    // methods it declares are walked at its end, when every name of the block is bound.
    void walk_block(const Block& b, Flow tail) {
        scopes_.emplace_back();
        std::vector<Deferred> later;
        for (size_t i = 0; i < b.stmts.size(); ++i)
            walk_stmt(*b.stmts[i], i + 1 == b.stmts.size() ? tail : kNone, later);
        for (const Deferred& d : later) walk_fn(*d.fn, d.cls);
        scopes_.pop_back();
    }

    // `fn_type`: a lambda's type as the callee declares its parameter (`fn(i64) -> f64`), which
    // gives the parameters written without a type theirs, and its value a result type.
    void walk_fn(const FnProto& p, const ClassDecl* cls, const TypeExpr* fn_type = nullptr) {
        const ClassDecl* saved_cls = cls_;
        const T saved_result = result_;
        if (fn_type &&
            (fn_type->args.size() != p.params.size() ||
             std::any_of(p.params.begin(), p.params.end(), [](const Param& q) { return q.rest != Param::Rest::None; })))
            fn_type = nullptr; // not one parameter for each of the type's
        cls_ = cls;
        result_ = !p.is_lambda ? declared(p.return_type) : fn_type ? declared(fn_type->result.get()) : T::Unknown;
        scopes_.emplace_back();
        if (cls && p.is_method && !p.is_static) bind(cls, "self", T::Unknown);
        for (size_t k = 0; k < p.params.size(); ++k) {
            const Param& param = p.params[k];
            const T t = fn_type && param.type.empty() ? declared(fn_type->args[k].get()) : declared(param.type);
            if (param.default_value) visit(*param.default_value, t == T::Float ? kFloat : kNone);
            bind(&param, param.name, param.rest == Param::Rest::None ? t : T::Unknown);
        }
        walk_block(p.body, result_ == T::Float ? kFloat : kNone);
        scopes_.pop_back();
        cls_ = saved_cls;
        result_ = saved_result;
    }

    void declare_fn(const FnDecl& d, std::vector<Deferred>& later) {
        auto it = scopes_.back().find(d.proto->name);
        if (it != scopes_.back().end() && fns_.count(it->second)) {
            fns_[it->second] = nullptr; // declared again: an overload set, its result depends on the arguments
        } else {
            bind(&d, d.proto->name, T::Unknown);
            fns_[&d] = d.proto.get();
        }
        later.push_back({d.proto.get(), cls_});
    }

    void walk_stmt(const Stmt& s, Flow tail, std::vector<Deferred>& later) {
        switch (s.kind) {
        case StmtKind::Expr: return visit(*static_cast<const ExprStmt&>(s).expr, tail);
        case StmtKind::Let: {
            const auto& l = static_cast<const Let&>(s);
            const T written = declared(l.type);
            T t = written;
            if (l.init) {
                visit(*l.init, written == T::Float ? kFloat : kNone);
                t = written == T::Float ? T::Float
                    : l.type.empty()    ? type_of(*l.init)
                                        : join(written, type_of(*l.init));
            }
            return bind_pattern(*l.target, t);
        }
        case StmtKind::Assign: {
            const auto& a = static_cast<const Assign&>(s);
            const void* key =
                a.target->kind == ExprKind::Name ? lookup(static_cast<const Name&>(*a.target).name) : nullptr;
            const T current = key ? name_type(static_cast<const Name&>(*a.target).name) : T::Unknown;
            visit(*a.target, kNone);
            // `x *= a / b` on an f64 x is `x = x * (a / b)`
            visit(*a.value, a.op != AssignOp::Set && current == T::Float ? kFloat : kNone);
            if (!key || !next_.count(key)) return;
            static constexpr BinOp kOps[] = {BinOp::Add, BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod};
            const T value = type_of(*a.value);
            T& t = next_[key];
            t = join(t, a.op == AssignOp::Set ? value : arithmetic(kOps[static_cast<int>(a.op)], current, value));
            return;
        }
        case StmtKind::If: {
            const auto& i = static_cast<const IfStmt&>(s);
            for (size_t k = 0; k < i.conds.size(); ++k) {
                visit(*i.conds[k], kNone);
                walk_block(i.blocks[k], tail);
            }
            if (i.else_block) walk_block(*i.else_block, tail);
            return;
        }
        case StmtKind::While: {
            const auto& w = static_cast<const While&>(s);
            visit(*w.cond, kNone);
            return walk_block(w.body, kNone);
        }
        case StmtKind::For: {
            const auto& f = static_cast<const For&>(s);
            visit(*f.iter, kNone);
            scopes_.emplace_back();
            bind_pattern(*f.target, loop_type(*f.iter));
            walk_block(f.body, kNone);
            scopes_.pop_back();
            return;
        }
        case StmtKind::Return: {
            const auto& r = static_cast<const Return&>(s);
            if (r.value) visit(*r.value, result_ == T::Float ? kFloat : kNone);
            return;
        }
        case StmtKind::Match: {
            const auto& m = static_cast<const MatchStmt&>(s);
            visit(*m.subject, kNone);
            return walk_arms(m.arms, tail);
        }
        case StmtKind::With: {
            const auto& w = static_cast<const With&>(s);
            visit(*w.resource, kNone);
            scopes_.emplace_back();
            if (w.alias) bind_pattern(*w.alias, T::Unknown);
            walk_block(w.body, kNone);
            scopes_.pop_back();
            return;
        }
        case StmtKind::Fn: return declare_fn(static_cast<const FnDecl&>(s), later);
        case StmtKind::Class: {
            const auto& c = static_cast<const ClassDecl&>(s);
            bind(&c, c.name, T::Unknown);
            for (const Param& f : c.init.params)
                if (f.default_value) visit(*f.default_value, declared(f.type) == T::Float ? kFloat : kNone);
            for (const auto& p : c.methods) later.push_back({p.get(), &c});
            return;
        }
        case StmtKind::Impl: {
            const auto& d = static_cast<const ImplDecl&>(s);
            auto it = classes_.find(d.target);
            for (const auto& p : d.methods) later.push_back({p.get(), it == classes_.end() ? nullptr : it->second});
            return;
        }
        case StmtKind::Enum: {
            const auto& d = static_cast<const EnumDecl&>(s);
            bind(&d, d.name, T::Unknown);
            for (const auto& p : d.methods) later.push_back({p.get(), nullptr});
            return;
        }
        case StmtKind::Trait: {
            const auto& d = static_cast<const TraitDecl&>(s);
            bind(&d, d.name, T::Unknown);
            for (const auto& p : d.methods) later.push_back({p.get(), nullptr});
            return;
        }
        case StmtKind::Extern: {
            const auto& d = static_cast<const ExternDecl&>(s);
            return bind(&d, d.name, T::Unknown);
        }
        case StmtKind::Use: {
            const auto& u = static_cast<const Use&>(s);
            for (size_t i = 0; i < u.names.size(); ++i)
                bind(&u.names[i], u.aliases[i].empty() ? u.names[i] : u.aliases[i], T::Unknown);
            if (!u.alias.empty())
                bind(&u.alias, u.alias, T::Unknown);
            else if (u.names.empty() && !u.star && !u.path.empty())
                bind(&u.path.back(), u.path.back(), T::Unknown);
            return;
        }
        default: return; // break, continue, pass, export
        }
    }

    const Module& m_;
    const CalleeTypes* callees_; // imported functions' declarations; null: none known
    std::vector<std::unordered_map<std::string, const void*>> scopes_;
    std::unordered_map<const void*, T> vars_;                   // each binding's type, as the last round found it
    std::unordered_map<const void*, T> next_;                   // the same, being found by this round
    std::unordered_map<const void*, const FnProto*> fns_;       // `fn` bindings: the function (null: overloaded)
    std::unordered_map<std::string, const ClassDecl*> classes_; // the module's classes, for `impl` blocks
    const ClassDecl* cls_ = nullptr;                            // the class whose method is walked (`self`'s)
    T result_ = T::Unknown;                                     // the walked function's declared result
    std::vector<DivisionSite> sites_;
};

} // namespace

std::vector<DivisionSite> find_float_divisions(const Module& m, const CalleeTypes* callees) {
    return Analyzer(m, callees).run();
}

std::string int_division_warning(const Binary& div, const std::optional<std::string>& values) {
    // `(s + 1) as f64`: `as` binds tighter than `/`, the parentheses are for the reader.
    const std::string as_float = "(" + expr_text_at(*div.lhs, 10) + " as f64) / " + expr_text_at(*div.rhs, 9);
    const bool literal = div.lhs->kind == ExprKind::Int || div.lhs->kind == ExprKind::Float;
    const std::string receiver = literal ? "(" + expr_text(*div.lhs) + ")" : expr_text_at(*div.lhs, 12);
    return "integer division truncates: " + expr_text(div) + (values ? " is " + *values : "") + "; write " + as_float +
           " for a float result, or " + receiver + ".fdiv(" + expr_text(*div.rhs) + ") for floor division";
}

void check_int_division(const Module& m, const CalleeTypes& callees, std::vector<Finding>& out) {
    for (const DivisionSite& s : find_float_divisions(m, &callees))
        if (s.flow == DivisionSite::Flow::Float && s.proven_int)
            out.push_back(Finding{s.div->loc, int_division_warning(*s.div, std::nullopt)});
}

} // namespace spl
