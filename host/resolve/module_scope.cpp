// module_scope.cpp — the module-scope half of name resolution: which
// top-level names a module has and where each one's value lives.
#include "resolve/module_scope.h"

#include <unordered_map>
#include <utility>

#include "base/diagnostics.h"

namespace spl {

using namespace ast;

namespace {

class ScopeBuilder {
public:
    explicit ScopeBuilder(ModuleObj& m) : m_(m) {}
    void collect();
    ModuleScope take() { return std::move(scope_); }

private:
    [[noreturn]] void fail(SourceLoc loc, const std::string& msg) { throw_error(ErrorKind::Name, loc, msg); }
    void define_global(const std::string& name, SourceLoc loc, bool is_mutable, bool own);
    Value* global_slot(const std::string& name) { return &m_.globals[m_.global_index.at(name)]; }

    ModuleObj& m_;
    ModuleScope scope_;
    std::unordered_set<std::string> fn_names_;   // top-level `fn`s: declaring one again adds an overload
    std::unordered_set<std::string> with_names_; // top-level `with ... as NAME`s: one global per name
};

void ScopeBuilder::define_global(const std::string& name, SourceLoc loc, bool is_mutable, bool own) {
    if (m_.global_index.count(name)) fail(loc, "`" + name + "` is defined twice in this module");
    m_.global_index[name] = static_cast<int>(m_.global_names.size());
    m_.global_names.push_back(name);
    if (is_mutable) scope_.mutable_globals.insert(name);
    if (own) m_.own_names.insert(name);
}

void ScopeBuilder::collect() {
    // Names a module defines itself win over imported ones; explicit imports
    // (`use m.{x}`) win over star imports (`use m.*`). Binding the same value
    // twice is fine; two different values under one name is an error.
    auto& stmts = m_.ast->init.body.stmts;
    std::unordered_map<std::string, std::pair<const ModuleObj*, int>> imported;
    auto import_binding = [&](Use& u, UseBinding& b, bool star) {
        auto prev = imported.find(b.name);
        if (prev != imported.end()) {
            if (prev->second == std::pair<const ModuleObj*, int>(b.source, b.source_index) || star) {
                b.source = nullptr; // the earlier binding of the name stands
                return;
            }
            fail(b.loc, "`" + b.name + "` is imported twice, from different places");
        }
        if (m_.global_index.count(b.name)) {
            if (star) {
                b.source = nullptr; // shadowed by this module's own definition
                return;
            }
            fail(b.loc, "`" + b.name + "` is defined twice in this module");
        }
        define_global(b.name, b.loc, false, false);
        imported[b.name] = {b.source, b.source_index};
        if (star) scope_.star_imported.insert(b.name);
        if (u.is_export) {
            m_.has_export_list = true;
            m_.exports.insert(b.name);
        }
    };
    for (auto& sp : stmts) {
        Stmt& s = *sp;
        switch (s.kind) {
        case StmtKind::Use: {
            auto& u = static_cast<Use&>(s);
            if (!u.star)
                for (auto& b : u.bindings) import_binding(u, b, false);
            break;
        }
        case StmtKind::Fn: {
            // Functions of one name form an overload set (in one slot).
            const std::string& name = static_cast<FnDecl&>(s).proto->name;
            if (fn_names_.insert(name).second) define_global(name, s.loc, false, true);
            break;
        }
        case StmtKind::Class: define_global(static_cast<ClassDecl&>(s).name, s.loc, false, true); break;
        case StmtKind::Enum: define_global(static_cast<EnumDecl&>(s).name, s.loc, false, true); break;
        case StmtKind::Trait: define_global(static_cast<TraitDecl&>(s).name, s.loc, false, true); break;
        case StmtKind::Extern: define_global(static_cast<ExternDecl&>(s).name, s.loc, false, true); break;
        case StmtKind::Let: {
            auto& let = static_cast<Let&>(s);
            std::vector<Pattern*> stack{let.target.get()};
            while (!stack.empty()) {
                Pattern* p = stack.back();
                stack.pop_back();
                if (p->kind == PatKind::Bind) {
                    define_global(p->name, p->loc, let.is_mutable, true);
                    scope_.assignable_globals.insert(p->name);
                }
                for (auto& sub : p->subs) stack.push_back(sub.get());
            }
            break;
        }
        case StmtKind::With: {
            // `with ... as NAME:` at the top level binds a global that outlives the block (the
            // resolver's With); another top-level `with ... as NAME` rebinds the same one.
            auto& w = static_cast<With&>(s);
            if (!w.alias) break;
            std::vector<Pattern*> stack{w.alias.get()};
            while (!stack.empty()) {
                Pattern* p = stack.back();
                stack.pop_back();
                if (p->kind == PatKind::Bind && !with_names_.count(p->name)) {
                    define_global(p->name, p->loc, false, true);
                    with_names_.insert(p->name);
                }
                for (auto& sub : p->subs) stack.push_back(sub.get());
            }
            break;
        }
        case StmtKind::Export: m_.has_export_list = true; break;
        default: break;
        }
    }
    for (auto& sp : stmts) {
        if (sp->kind != StmtKind::Use) continue;
        auto& u = static_cast<Use&>(*sp);
        if (u.star)
            for (auto& b : u.bindings) import_binding(u, b, true);
    }
    m_.globals.resize(m_.global_names.size());
    // Point declarations at their slots.
    for (auto& sp : m_.ast->init.body.stmts) {
        Stmt& s = *sp;
        switch (s.kind) {
        case StmtKind::Use:
            for (auto& b : static_cast<Use&>(s).bindings)
                if (b.source) b.global = global_slot(b.name);
            break;
        case StmtKind::Fn: static_cast<FnDecl&>(s).global = global_slot(static_cast<FnDecl&>(s).proto->name); break;
        case StmtKind::Class: static_cast<ClassDecl&>(s).global = global_slot(static_cast<ClassDecl&>(s).name); break;
        case StmtKind::Enum: static_cast<EnumDecl&>(s).global = global_slot(static_cast<EnumDecl&>(s).name); break;
        case StmtKind::Trait: static_cast<TraitDecl&>(s).global = global_slot(static_cast<TraitDecl&>(s).name); break;
        case StmtKind::Extern:
            static_cast<ExternDecl&>(s).global = global_slot(static_cast<ExternDecl&>(s).name);
            break;
        case StmtKind::Export: {
            auto& e = static_cast<Export&>(s);
            for (size_t i = 0; i < e.names.size(); ++i) {
                if (!m_.global_index.count(e.names[i]))
                    fail(e.locs[i], "cannot export `" + e.names[i] + "`: no such name in this module");
                m_.exports.insert(e.names[i]);
            }
            break;
        }
        default: break;
        }
    }
}

} // namespace

ModuleScope collect_module_scope(ModuleObj& m) {
    ScopeBuilder builder(m);
    builder.collect();
    return builder.take();
}

} // namespace spl
