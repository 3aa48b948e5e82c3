// Binds every name of a module before it runs: frame slots, captured cells, globals, builtins.
#include "resolve/resolver.h"

#include <deque>
#include <memory>
#include <unordered_set>

#include "base/diagnostics.h"
#include "resolve/builtin_names.h"
#include "resolve/checks/int_division.h"
#include "resolve/module_scope.h"
#include "resolve/types.h"

namespace spl {

using namespace ast;

namespace {

struct LocalVar {
    std::string name;
    uint32_t slot;
    bool is_mutable;
    bool captured = false;
};

struct FnState {
    FnState* parent = nullptr;
    FnProto* proto = nullptr;
    std::vector<std::vector<LocalVar*>> scopes;
    std::vector<uint32_t> scope_starts;
    std::vector<uint32_t> peaks; // per open block: the highest slot used inside it
    uint32_t next_slot = 0;
    uint32_t high = 0; // the frame size
    std::vector<LocalVar*> upvalue_vars;
    std::vector<std::pair<LocalVar*, bool*>> fixups; // set to var->captured at the end
    int loops = 0;
    bool module_level = false;
};

class Resolver final : TypeLookup {
public:
    Resolver(ModuleObj& m, CacheAllocator& caches, const BuiltinNames& builtins)
        : m_(m), caches_(caches), builtins_(builtins) {}
    void run();

private:
    [[noreturn]] void fail(SourceLoc loc, const std::string& msg) { throw_error(ErrorKind::Name, loc, msg); }

    // ---- globals (module_scope.cpp gave each top-level name its slot)
    Value* global_slot(const std::string& name) { return &m_.globals[m_.global_index.at(name)]; }

    // ---- scopes
    void push_scope() {
        fn_->scopes.emplace_back();
        fn_->scope_starts.push_back(fn_->next_slot);
    }
    void pop_scope() {
        fn_->next_slot = fn_->scope_starts.back();
        fn_->scopes.pop_back();
        fn_->scope_starts.pop_back();
    }
    void open_block(Block& b) {
        push_scope();
        b.slot_begin = fn_->next_slot;
        fn_->peaks.push_back(fn_->next_slot);
    }
    void close_block(Block& b) {
        uint32_t peak = fn_->peaks.back();
        fn_->peaks.pop_back();
        if (!fn_->peaks.empty()) fn_->peaks.back() = std::max(fn_->peaks.back(), peak);
        b.slot_end = peak;
        pop_scope();
    }
    LocalVar* declare(const std::string& name, bool is_mutable);
    LocalVar* find_local(FnState* f, const std::string& name);
    int find_upvalue(FnState* f, const std::string& name, LocalVar** var);
    bool at_module_top() const { return fn_->module_level && fn_->scopes.size() == 1; }

    // ---- declared types
    const Value* find(const std::string& name) const override; // TypeLookup: a class or enum's global slot
    std::shared_ptr<const TypeSpec> param_spec(const TypeRef& type);
    void link_shape_constants(const TypeExpr* t);
    void link_shape_constants(const DimExpr& d);

    // ---- functions
    void resolve_function(FnProto& p, FnState* parent, const std::string& qualified);
    void resolve_detached(Expr& e, uint32_t& nslots); // field/extern defaults
    void mark_tail(Block& b);

    // ---- statements and expressions
    void resolve_block(Block& b);
    void resolve_stmts(Block& b);
    void resolve_stmt(Stmt& s);
    void resolve_expr(Expr& e);
    void resolve_name(Name& n);
    void resolve_assign_target(Expr& target);
    void declare_pattern(Pattern& p, bool is_mutable);
    void resolve_pattern(Pattern& p); // match patterns: binds become locals
    void resolve_if(std::vector<ExprPtr>& conds, std::vector<Block>& blocks, std::unique_ptr<Block>& else_block);
    void resolve_match(Expr& subject, std::vector<MatchArm>& arms);
    void resolve_class(ClassDecl& d);
    void resolve_methods(std::vector<std::unique_ptr<FnProto>>& methods, const std::string& owner);

    ModuleObj& m_;
    CacheAllocator& caches_;
    const BuiltinNames& builtins_;
    std::deque<LocalVar> vars_;
    FnState* fn_ = nullptr;
    std::string class_name_; // what `Self` means here
    bool in_trait_ = false;  // in a trait's methods, `Self` is the class that has the method (NameKind::SelfClass)
    ModuleScope scope_;
    std::unordered_map<std::string, std::shared_ptr<const TypeSpec>> specs_; // compiled types, by text
};

LocalVar* Resolver::declare(const std::string& name, bool is_mutable) {
    vars_.push_back(LocalVar{name, fn_->next_slot++, is_mutable});
    LocalVar* v = &vars_.back();
    fn_->scopes.back().push_back(v);
    fn_->high = std::max(fn_->high, fn_->next_slot);
    if (!fn_->peaks.empty()) fn_->peaks.back() = std::max(fn_->peaks.back(), fn_->next_slot);
    return v;
}

LocalVar* Resolver::find_local(FnState* f, const std::string& name) {
    for (auto scope = f->scopes.rbegin(); scope != f->scopes.rend(); ++scope)
        for (auto v = scope->rbegin(); v != scope->rend(); ++v)
            if ((*v)->name == name) return *v;
    return nullptr;
}

// Lua-style: a variable of an enclosing function becomes an upvalue of every
// function between it and the use.
int Resolver::find_upvalue(FnState* f, const std::string& name, LocalVar** var) {
    if (!f->parent) return -1;
    UpvalueDesc desc;
    if (LocalVar* v = find_local(f->parent, name)) {
        v->captured = true;
        *var = v;
        desc = UpvalueDesc{true, v->slot};
    } else {
        int idx = find_upvalue(f->parent, name, var);
        if (idx < 0) return -1;
        desc = UpvalueDesc{false, static_cast<uint32_t>(idx)};
    }
    auto& ups = f->proto->upvalues;
    for (size_t i = 0; i < ups.size(); ++i)
        if (ups[i].from_parent_local == desc.from_parent_local && ups[i].index == desc.index &&
            f->upvalue_vars[i] == *var)
            return static_cast<int>(i);
    ups.push_back(desc);
    f->upvalue_vars.push_back(*var);
    return static_cast<int>(ups.size() - 1);
}

void Resolver::resolve_name(Name& n) {
    if (n.name == "Self" && in_trait_ && fn_ && !fn_->parent && !fn_->module_level) {
        n.ref = NameKind::SelfClass;
        return;
    }
    if (n.name == "Self" && !class_name_.empty()) n.name = class_name_;
    if (LocalVar* v = find_local(fn_, n.name)) {
        n.ref = NameKind::Local;
        n.index = v->slot;
        fn_->fixups.emplace_back(v, &n.captured);
        return;
    }
    LocalVar* var = nullptr;
    int up = find_upvalue(fn_, n.name, &var);
    if (up >= 0) {
        n.ref = NameKind::Upvalue;
        n.index = static_cast<uint32_t>(up);
        return;
    }
    int g = m_.find_global(n.name);
    if (g >= 0) {
        n.ref = NameKind::Global;
        n.global = &m_.globals[g];
        return;
    }
    int b = builtins_.function_index(n.name);
    if (b >= 0) {
        n.ref = NameKind::Builtin;
        n.index = static_cast<uint32_t>(b);
        return;
    }
    fail(n.loc, "undefined name `" + n.name + "`");
}

const Value* Resolver::find(const std::string& name) const {
    int g = m_.find_global(name == "Self" ? class_name_ : name);
    return g < 0 ? nullptr : &m_.globals[static_cast<size_t>(g)];
}

// Types repeat (`Tensor` thousands of times in a generated library): each
// type is compiled once per module (keyed by its canonical text). `Self` depends on the class, so it is not shared.
// A shape type's symbols named like a global of the module (`val D = 768`): the symbol is that
// constant while the global holds an integer (eval/shape_checks.h reads it at each check).
void Resolver::link_shape_constants(const DimExpr& d) {
    if (d.kind == DimExpr::Kind::Symbol) {
        if (const int g = m_.find_global(d.name); g >= 0) d.constant = &m_.globals[static_cast<size_t>(g)];
    } else if (d.kind == DimExpr::Kind::Binary) {
        link_shape_constants(*d.lhs);
        link_shape_constants(*d.rhs);
    }
}

void Resolver::link_shape_constants(const TypeExpr* t) {
    if (!t) return;
    if (t->shape)
        for (const DimPtr& d : t->shape->dims) link_shape_constants(*d);
    for (const TypePtr& a : t->args) link_shape_constants(a.get());
}

std::shared_ptr<const TypeSpec> Resolver::param_spec(const TypeRef& type) {
    if (type.empty()) return untyped_spec();
    const bool shared = type.text.find("Self") == std::string::npos;
    if (shared) {
        auto it = specs_.find(type.text);
        if (it != specs_.end()) return it->second;
    }
    auto spec = std::make_shared<const TypeSpec>(compile_type(type, *this));
    if (shared) specs_.emplace(type.text, spec);
    return spec;
}

void Resolver::resolve_function(FnProto& p, FnState* parent, const std::string& qualified) {
    p.cache = caches_.new_body();
    for (size_t i = 0; i < p.params.size(); ++i) {
        Param& param = p.params[i];
        param.spec = param_spec(param.type);
        link_shape_constants(param.type.tree.get());
        param.wraps_number = param.rest == Param::Rest::None && param.spec->wraps_number();
        if (param.rest == Param::Rest::Positional) p.rest_positional = static_cast<int>(i);
        if (param.rest == Param::Rest::Named) p.rest_named = static_cast<int>(i);
        if (param.rest != Param::Rest::Named) p.checks_args |= !param.spec->trivial_for_single();
    }
    link_shape_constants(p.return_type.tree.get());
    FnState st;
    st.parent = parent;
    st.proto = &p;
    FnState* saved = fn_;
    fn_ = &st;
    p.qualified_name = qualified;
    push_scope();
    std::vector<LocalVar*> params; // self first, for captured_params
    if (p.is_method) params.push_back(declare("self", false));
    for (Param& param : p.params) {
        if (param.default_value) resolve_expr(*param.default_value);
        params.push_back(declare(param.name, true));
    }
    resolve_stmts(p.body);
    p.body.slot_begin = p.body.slot_end = 0; // the frame's teardown clears them
    pop_scope();
    mark_tail(p.body);
    for (LocalVar* v : params)
        if (v->captured) p.captured_params.push_back(v->slot);
    p.plain_params = !p.has_rest() && p.captured_params.empty();
    for (const Param& param : p.params)
        p.plain_params = p.plain_params && !param.to_float && !param.wraps_number &&
                         (!param.default_value || is_literal(*param.default_value));
    p.nslots = st.high;
    for (auto& [var, flag] : st.fixups) *flag = var->captured;
    fn_ = saved;
}

void Resolver::resolve_detached(Expr& e, uint32_t& nslots) {
    FnProto proto;
    FnState st;
    st.proto = &proto;
    FnState* saved = fn_;
    fn_ = &st;
    push_scope();
    resolve_expr(e);
    pop_scope();
    for (auto& [var, flag] : st.fixups) *flag = var->captured;
    nslots = std::max(nslots, st.high);
    fn_ = saved;
}

void Resolver::mark_tail(Block& b) {
    if (b.stmts.empty()) return;
    Stmt& last = *b.stmts.back();
    switch (last.kind) {
    case StmtKind::Expr: static_cast<ExprStmt&>(last).tail = true; break;
    case StmtKind::If: {
        auto& s = static_cast<IfStmt&>(last);
        s.tail = true;
        for (auto& blk : s.blocks) mark_tail(blk);
        if (s.else_block) mark_tail(*s.else_block);
        break;
    }
    case StmtKind::Match: {
        auto& s = static_cast<MatchStmt&>(last);
        s.tail = true;
        for (auto& arm : s.arms) mark_tail(arm.body);
        break;
    }
    case StmtKind::With: {
        mark_tail(static_cast<With&>(last).body); // `__exit__` runs after the result is computed
        break;
    }
    default: break;
    }
}

void Resolver::resolve_block(Block& b) {
    open_block(b);
    resolve_stmts(b);
    close_block(b);
}

void Resolver::resolve_stmts(Block& b) {
    for (auto& s : b.stmts) resolve_stmt(*s);
}

void Resolver::declare_pattern(Pattern& p, bool is_mutable) {
    switch (p.kind) {
    case PatKind::Bind:
        if (at_module_top()) {
            p.global = global_slot(p.name);
        } else {
            LocalVar* v = declare(p.name, is_mutable);
            p.slot = v->slot;
            fn_->fixups.emplace_back(v, &p.captured);
        }
        break;
    case PatKind::Wildcard: break;
    case PatKind::Tuple:
    case PatKind::Array:
        for (auto& sub : p.subs) declare_pattern(*sub, is_mutable);
        break;
    default: resolve_pattern(p); break;
    }
}

void Resolver::resolve_pattern(Pattern& p) {
    switch (p.kind) {
    case PatKind::Bind: {
        // In an `a | b` alternative the same name may appear in each branch.
        for (LocalVar* v : fn_->scopes.back())
            if (v->name == p.name) {
                p.slot = v->slot;
                fn_->fixups.emplace_back(v, &p.captured);
                return;
            }
        LocalVar* v = declare(p.name, false);
        p.slot = v->slot;
        fn_->fixups.emplace_back(v, &p.captured);
        break;
    }
    case PatKind::Wildcard:
    case PatKind::Literal: break;
    case PatKind::Variant:
    case PatKind::Tuple:
    case PatKind::Array:
    case PatKind::Or:
        for (auto& sub : p.subs) resolve_pattern(*sub);
        break;
    }
}

// `if` and `match` are both statements and expressions (IfStmt / IfExpr,
// MatchStmt / MatchExpr hold the same parts); one resolver serves both forms.
void Resolver::resolve_if(std::vector<ExprPtr>& conds, std::vector<Block>& blocks, std::unique_ptr<Block>& else_block) {
    for (size_t i = 0; i < conds.size(); ++i) {
        resolve_expr(*conds[i]);
        resolve_block(blocks[i]);
    }
    if (else_block) resolve_block(*else_block);
}

void Resolver::resolve_match(Expr& subject, std::vector<MatchArm>& arms) {
    resolve_expr(subject);
    for (auto& arm : arms) {
        open_block(arm.body);
        resolve_pattern(*arm.pattern);
        if (arm.guard) resolve_expr(*arm.guard);
        resolve_stmts(arm.body);
        close_block(arm.body);
    }
}

void Resolver::resolve_methods(std::vector<std::unique_ptr<FnProto>>& methods, const std::string& owner) {
    std::string saved = class_name_;
    class_name_ = owner;
    for (auto& m : methods) resolve_function(*m, nullptr, owner + "." + m->name);
    class_name_ = saved;
}

void Resolver::resolve_class(ClassDecl& d) {
    std::string saved = class_name_;
    class_name_ = d.name;
    // `C(...)`: its parameters are the fields, with no types to check (a field takes any value;
    // declared f64 fields turn an i64 into a float).
    FnProto& init = d.init;
    init.name = init.qualified_name = d.name;
    init.loc = d.loc;
    init.plain_params = true;
    for (Param& f : init.params) {
        if (f.default_value) resolve_detached(*f.default_value, d.init_slots);
        init.plain_params = init.plain_params && !f.to_float && (!f.default_value || is_literal(*f.default_value));
        const TypeExpr* t = f.type.tree.get();
        if (t && t->kind == TypeExpr::Kind::Optional) t = t->args[0].get();
        if (t && t->kind == TypeExpr::Kind::Named && t->shape) {
            d.shape_fields = true;
            link_shape_constants(f.type.tree.get());
        }
    }
    init.plain_params = init.plain_params && !d.shape_fields; // built by construct(), which checks them
    class_name_ = saved;
    resolve_methods(d.methods, d.name);
}

void Resolver::resolve_assign_target(Expr& target) {
    if (target.kind != ExprKind::Name) {
        resolve_expr(target);
        return;
    }
    auto& n = static_cast<Name&>(target);
    if (LocalVar* v = find_local(fn_, n.name)) {
        if (!v->is_mutable)
            fail(n.loc, "cannot assign to `" + n.name + "`: it is declared with `val` (use `var` for a variable)");
        n.ref = NameKind::Local;
        n.index = v->slot;
        fn_->fixups.emplace_back(v, &n.captured);
        return;
    }
    LocalVar* var = nullptr;
    int up = find_upvalue(fn_, n.name, &var);
    if (up >= 0) {
        if (!var->is_mutable)
            fail(n.loc, "cannot assign to `" + n.name + "`: it is declared with `val` (use `var` for a variable)");
        n.ref = NameKind::Upvalue;
        n.index = static_cast<uint32_t>(up);
        return;
    }
    int g = m_.find_global(n.name);
    if (g >= 0) {
        if (!scope_.mutable_globals.count(n.name))
            fail(n.loc, scope_.assignable_globals.count(n.name)
                            ? "cannot assign to `" + n.name + "`: it is declared with `val` (use `var` for a variable)"
                            : "cannot assign to `" + n.name + "`: it is not a variable");
        n.ref = NameKind::Global;
        n.global = &m_.globals[g];
        return;
    }
    fail(n.loc, "assignment to undeclared variable `" + n.name + "` (declare it with `val` or `var`)");
}

void Resolver::resolve_stmt(Stmt& s) {
    switch (s.kind) {
    case StmtKind::Expr: resolve_expr(*static_cast<ExprStmt&>(s).expr); break;
    case StmtKind::Let: {
        auto& let = static_cast<Let&>(s);
        link_shape_constants(let.type.tree.get());
        if (let.init) resolve_expr(*let.init);
        declare_pattern(*let.target, let.is_mutable);
        break;
    }
    case StmtKind::Assign: {
        auto& a = static_cast<Assign&>(s);
        resolve_expr(*a.value);
        resolve_assign_target(*a.target);
        break;
    }
    case StmtKind::If: {
        auto& x = static_cast<IfStmt&>(s);
        resolve_if(x.conds, x.blocks, x.else_block);
        break;
    }
    case StmtKind::While: {
        auto& w = static_cast<While&>(s);
        resolve_expr(*w.cond);
        ++fn_->loops;
        resolve_block(w.body);
        --fn_->loops;
        break;
    }
    case StmtKind::For: {
        auto& f = static_cast<For&>(s);
        resolve_expr(*f.iter);
        ++fn_->loops;
        open_block(f.body);
        declare_pattern(*f.target, false);
        resolve_stmts(f.body);
        close_block(f.body);
        --fn_->loops;
        break;
    }
    case StmtKind::With: {
        auto& w = static_cast<With&>(s);
        resolve_expr(*w.resource);
        // `as NAME` outlives the block, as in Python (`prof.key_averages()` after `with profile() as
        // prof:`): declared in the enclosing block, a global at a module's top level (module_scope.cpp).
        if (w.alias) declare_pattern(*w.alias, false);
        open_block(w.body);
        resolve_stmts(w.body);
        close_block(w.body);
        break;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
        if (fn_->loops == 0)
            fail(s.loc, std::string("`") + (s.kind == StmtKind::Break ? "break" : "continue") + "` outside a loop");
        break;
    case StmtKind::Return: {
        auto& r = static_cast<Return&>(s);
        if (fn_->module_level) fail(s.loc, "`return` outside a function");
        if (r.value) resolve_expr(*r.value);
        break;
    }
    case StmtKind::Match: {
        auto& m = static_cast<MatchStmt&>(s);
        resolve_match(*m.subject, m.arms);
        break;
    }
    case StmtKind::Fn: {
        auto& d = static_cast<FnDecl&>(s);
        if (at_module_top()) {
            resolve_function(*d.proto, nullptr, d.proto->name);
        } else {
            LocalVar* v = declare(d.proto->name, false); // first, so that it can call itself
            d.slot = v->slot;
            fn_->fixups.emplace_back(v, &d.captured);
            resolve_function(*d.proto, fn_, d.proto->name);
        }
        break;
    }
    case StmtKind::Class:
        if (!at_module_top()) fail(s.loc, "classes can only be declared at the top level of a module");
        resolve_class(static_cast<ClassDecl&>(s));
        break;
    case StmtKind::Enum:
        if (!at_module_top()) fail(s.loc, "enums can only be declared at the top level of a module");
        resolve_methods(static_cast<EnumDecl&>(s).methods, static_cast<EnumDecl&>(s).name);
        break;
    case StmtKind::Impl: {
        auto& d = static_cast<ImplDecl&>(s);
        if (!at_module_top()) fail(s.loc, "`impl` can only appear at the top level of a module");
        int g = m_.find_global(d.target);
        if (g < 0) fail(s.loc, "`impl` for an unknown type `" + d.target + "`");
        d.global = &m_.globals[g];
        if (!d.trait.empty()) {
            int t = m_.find_global(d.trait);
            if (t < 0) fail(s.loc, "`impl " + d.trait + " for " + d.target + "`: unknown trait `" + d.trait + "`");
            d.trait_global = &m_.globals[t];
        }
        resolve_methods(d.methods, d.target);
        break;
    }
    case StmtKind::Trait:
        if (!at_module_top()) fail(s.loc, "traits can only be declared at the top level of a module");
        in_trait_ = true;
        resolve_methods(static_cast<TraitDecl&>(s).methods, static_cast<TraitDecl&>(s).name);
        in_trait_ = false;
        break;
    case StmtKind::Extern: {
        auto& d = static_cast<ExternDecl&>(s);
        if (!at_module_top()) fail(s.loc, "`extern fn` can only appear at the top level of a module");
        for (auto& p : d.params)
            if (p.default_value) resolve_detached(*p.default_value, d.default_slots);
        break;
    }
    case StmtKind::Use:
    case StmtKind::Export:
        if (!at_module_top()) fail(s.loc, "`use` and `export` can only appear at the top level of a module");
        break;
    case StmtKind::Pass:
    case StmtKind::Ignored: break;
    }
}

void Resolver::resolve_expr(Expr& e) {
    switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Str:
    case ExprKind::Bool:
    case ExprKind::Nil:
    case ExprKind::Ellipsis: break;
    case ExprKind::Interp:
        for (auto& x : static_cast<Interp&>(e).exprs) resolve_expr(*x);
        break;
    case ExprKind::Name: resolve_name(static_cast<Name&>(e)); break;
    case ExprKind::Unary:
        static_cast<Unary&>(e).cache = caches_.new_site();
        resolve_expr(*static_cast<Unary&>(e).operand);
        break;
    case ExprKind::Binary: {
        auto& b = static_cast<Binary&>(e);
        b.cache = caches_.new_site();
        resolve_expr(*b.lhs);
        resolve_expr(*b.rhs);
        break;
    }
    case ExprKind::Logical: {
        auto& b = static_cast<Logical&>(e);
        resolve_expr(*b.lhs);
        resolve_expr(*b.rhs);
        break;
    }
    case ExprKind::Range: {
        auto& r = static_cast<Range&>(e);
        resolve_expr(*r.start);
        resolve_expr(*r.end);
        break;
    }
    case ExprKind::Call: {
        auto& c = static_cast<Call&>(e);
        c.cache = caches_.new_site();
        resolve_expr(*c.callee);
        for (auto& a : c.args) resolve_expr(*a);
        if (c.callee->kind == ExprKind::Name) {
            const auto& n = static_cast<const Name&>(*c.callee);
            if (n.ref == NameKind::Global && scope_.star_imported.count(n.name))
                c.builtin_fallback = builtins_.function_index(n.name);
        }
        break;
    }
    case ExprKind::MethodCall: {
        auto& c = static_cast<MethodCall&>(e);
        c.cache = caches_.new_site();
        resolve_expr(*c.object);
        for (auto& a : c.args) resolve_expr(*a);
        c.builtin = builtins_.method_id(c.name);
        break;
    }
    case ExprKind::Member:
        static_cast<Member&>(e).cache = caches_.new_site();
        resolve_expr(*static_cast<Member&>(e).object);
        break;
    case ExprKind::Index: {
        auto& x = static_cast<Index&>(e);
        x.cache = caches_.new_site();
        resolve_expr(*x.object);
        for (auto& i : x.indices) resolve_expr(*i);
        break;
    }
    case ExprKind::Slice: {
        auto& s = static_cast<Slice&>(e);
        if (s.start) resolve_expr(*s.start);
        if (s.stop) resolve_expr(*s.stop);
        if (s.step) resolve_expr(*s.step);
        break;
    }
    case ExprKind::Lambda: {
        auto& l = static_cast<Lambda&>(e);
        resolve_function(*l.proto, fn_, l.proto->name);
        break;
    }
    case ExprKind::If: {
        auto& x = static_cast<IfExpr&>(e);
        resolve_if(x.conds, x.blocks, x.else_block);
        break;
    }
    case ExprKind::Match: {
        auto& m = static_cast<MatchExpr&>(e);
        resolve_match(*m.subject, m.arms);
        break;
    }
    case ExprKind::Array:
        for (auto& x : static_cast<ArrayLit&>(e).elems) resolve_expr(*x);
        break;
    case ExprKind::Tuple:
        for (auto& x : static_cast<TupleLit&>(e).elems) resolve_expr(*x);
        break;
    case ExprKind::Dict: {
        auto& d = static_cast<DictLit&>(e);
        for (size_t i = 0; i < d.keys.size(); ++i) {
            resolve_expr(*d.keys[i]);
            resolve_expr(*d.values[i]);
        }
        break;
    }
    case ExprKind::Comprehension: {
        auto& c = static_cast<Comprehension&>(e);
        Block scope; // only for its slot range
        open_block(scope);
        for (auto& clause : c.clauses) {
            if (clause.iter) {
                resolve_expr(*clause.iter);
                declare_pattern(*clause.pattern, false);
            } else {
                resolve_expr(*clause.cond);
            }
        }
        resolve_expr(*c.elem);
        if (c.value) resolve_expr(*c.value);
        close_block(scope);
        c.slot_begin = scope.slot_begin;
        c.slot_end = scope.slot_end;
        break;
    }
    case ExprKind::Try: resolve_expr(*static_cast<Try&>(e).operand); break;
    case ExprKind::Cast: resolve_expr(*static_cast<Cast&>(e).operand); break;
    }
}

void Resolver::run() {
    scope_ = collect_module_scope(m_);
    FnState st;
    st.proto = &m_.ast->init;
    st.module_level = true;
    fn_ = &st;
    m_.ast->init.qualified_name = "<module " + m_.name + ">";
    m_.ast->init.cache = caches_.new_body();
    push_scope();
    fn_->peaks.push_back(0);
    resolve_stmts(m_.ast->init.body);
    pop_scope();
    m_.ast->init.nslots = st.high;
    for (auto& [var, flag] : st.fixups) *flag = var->captured;
    fn_ = nullptr;
}

} // namespace

void resolve_module(ModuleObj& m, CacheAllocator& caches, const BuiltinNames& builtins) {
    Resolver r(m, caches, builtins);
    r.run();
    // The program's own divisions that may truncate into a float: watched while it runs
    // (a library's are its authors' to fix, and a user cannot act on them).
    if (!m.ast->file->is_library())
        for (const DivisionSite& site : find_float_divisions(*m.ast)) caches.watch_division(site);
}

} // namespace spl
