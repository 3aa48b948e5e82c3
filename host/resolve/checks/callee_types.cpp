// callee_types.cpp — imported functions' declared parameters, for `splrun check` (callee_types.h).
#include "resolve/checks/callee_types.h"

#include <algorithm>

#include "base/diagnostics.h"
#include "base/scalar_types.h"
#include "syntax/parser.h"

namespace spl {

using namespace ast;

namespace {

// How many `export use` hops a name is followed through (lib.torch re-exports once or twice).
constexpr int kMaxReexports = 3;

bool is_spec_module(const Use& u) { return u.path.size() >= 2 && u.path[0] == "std" && u.path[1] == "spec"; }

// Whether a parameter declared `t` can take a function: not when the type check refuses one
// (numbers, bools, texts, arrays, tuples, dicts); a class, trait or generic name might.
bool can_take_function(const TypeExpr* t) {
    if (!t) return true;
    switch (t->kind) {
    case TypeExpr::Kind::Function: return true;
    case TypeExpr::Kind::Optional: return can_take_function(t->args[0].get());
    case TypeExpr::Kind::Named:
        return t->generic || !(find_int_type(t->name) || find_float_type(t->name) || t->name == "bool" ||
                               t->name == "text" || t->name == "str" || t->name == "String" || t->name == "Scalar");
    default: return false;
    }
}

// The parameter an argument binds to; null when it binds to none (the overload refuses the
// call). `variadic` is set when a rest parameter would take it.
// (The tree is parsed, not resolved: FnProto's rest indices are not filled, Param::rest is.)
const Param* bound_param(const FnProto& p, size_t index, const std::string& name, bool& variadic) {
    variadic = false;
    const Param::Rest wanted = name.empty() ? Param::Rest::Positional : Param::Rest::Named;
    for (size_t i = 0; i < p.params.size(); ++i) {
        const Param& q = p.params[i];
        if (q.rest == wanted) { // positional arguments fill the parameters before it
            variadic = true;
            return nullptr;
        }
        if (q.rest == Param::Rest::None && (name.empty() ? i == index : q.name == name)) return &q;
    }
    return nullptr;
}

// Every parameter alike but `skip`: name, declared type, whether it has a default, variadic.
bool same_params_but(const FnProto& a, const FnProto& b, const Param* skip_a, const Param* skip_b) {
    if (a.params.size() != b.params.size()) return false;
    for (size_t i = 0; i < a.params.size(); ++i) {
        const Param &x = a.params[i], &y = b.params[i];
        if ((&x == skip_a) != (&y == skip_b)) return false;
        if (&x == skip_a) continue;
        if (x.name != y.name || x.type.text != y.type.text || !x.default_value != !y.default_value || x.rest != y.rest)
            return false;
    }
    return true;
}

} // namespace

const Module* CalleeTypes::parse(const std::string& file) const {
    auto it = modules_.find(file);
    if (it != modules_.end()) return it->second.get();
    std::unique_ptr<Module>& slot = modules_[file];
    if (const SourceFile* src = sources_.load(file, true)) {
        try {
            slot = parse_module(*src);
        } catch (const ProgramError&) {
            // a library that does not parse: its names stay unknown, the check goes on
        }
    }
    return slot.get();
}

void CalleeTypes::collect(const std::string& file, const std::string& name, int depth,
                          std::vector<const FnProto*>& out) const {
    const Module* m = file.empty() ? nullptr : parse(file);
    if (!m) return;
    const std::vector<StmtPtr>& stmts = m->init.body.stmts;
    auto add_constructors = [&](const std::vector<std::unique_ptr<FnProto>>& methods) {
        for (const auto& p : methods)
            if (p->is_static && p->name == "new") out.push_back(p.get());
    };
    bool exported = false; // `export NAME` of a name a plain `use` brings in
    for (const StmtPtr& s : stmts) {
        if (s->kind == StmtKind::Fn) {
            const auto& f = static_cast<const FnDecl&>(*s);
            if (f.proto->name == name) out.push_back(f.proto.get());
        } else if (s->kind == StmtKind::Class && static_cast<const ClassDecl&>(*s).name == name) {
            add_constructors(static_cast<const ClassDecl&>(*s).methods);
        } else if (s->kind == StmtKind::Impl && static_cast<const ImplDecl&>(*s).target == name) {
            add_constructors(static_cast<const ImplDecl&>(*s).methods);
        } else if (s->kind == StmtKind::Export) {
            const auto& e = static_cast<const Export&>(*s);
            exported |= std::find(e.names.begin(), e.names.end(), name) != e.names.end();
        }
    }
    if (!out.empty() || depth >= kMaxReexports) return;
    for (const StmtPtr& s : stmts) {
        if (s->kind != StmtKind::Use) continue;
        const auto& u = static_cast<const Use&>(*s);
        if (is_spec_module(u) || !(u.is_export || exported)) continue;
        if (u.star && u.is_export) {
            collect(find_(u.path, file), name, depth + 1, out);
        } else {
            for (size_t i = 0; i < u.names.size(); ++i)
                if ((u.aliases[i].empty() ? u.names[i] : u.aliases[i]) == name)
                    collect(find_(u.path, file), u.names[i], depth + 1, out);
        }
        if (!out.empty()) return;
    }
}

void CalleeTypes::read_imports(const Module& m) {
    if (!find_ || !m.file) return;
    for (const StmtPtr& s : m.init.body.stmts) {
        if (s->kind != StmtKind::Use) continue;
        const auto& u = static_cast<const Use&>(*s);
        if (is_spec_module(u) || u.star) continue;
        if (u.names.empty()) { // `use a.b`, `use a.b as m`: the module, or the name b of module a
            const std::string file = find_(u.path, m.file->path());
            const void* key = u.alias.empty() ? static_cast<const void*>(&u.path.back()) : &u.alias;
            if (!file.empty()) {
                whole_modules_[key] = file;
            } else if (u.path.size() >= 2) {
                std::vector<const FnProto*> found;
                collect(find_({u.path.begin(), u.path.end() - 1}, m.file->path()), u.path.back(), 0, found);
                if (!found.empty()) names_[key] = std::move(found);
            }
            continue;
        }
        const std::string file = find_(u.path, m.file->path());
        for (size_t i = 0; i < u.names.size(); ++i) {
            std::vector<const FnProto*> found;
            collect(file, u.names[i], 0, found);
            if (!found.empty()) names_[&u.names[i]] = std::move(found);
        }
    }
}

const std::vector<const FnProto*>* CalleeTypes::find(const void* use_name) const {
    auto it = names_.find(use_name);
    return it == names_.end() ? nullptr : &it->second;
}

const std::vector<const FnProto*>* CalleeTypes::find_member(const void* use_module, const std::string& name) const {
    auto it = whole_modules_.find(use_module);
    if (it == whole_modules_.end()) return nullptr;
    const std::string key = it->second + "\n" + name;
    auto known = members_.find(key);
    if (known == members_.end()) {
        std::vector<const FnProto*> found;
        collect(it->second, name, 0, found);
        known = members_.emplace(key, std::move(found)).first;
    }
    return known->second.empty() ? nullptr : &known->second;
}

const TypeExpr* CalleeTypes::function_param(const std::vector<const FnProto*>& overloads, size_t index,
                                            const std::string& name) {
    const FnProto* chosen = nullptr;
    const Param* chosen_param = nullptr;
    for (const FnProto* p : overloads) {
        bool variadic = false;
        const Param* param = bound_param(*p, index, name, variadic);
        if (variadic) return nullptr;                                       // a rest parameter takes anything
        if (!param || !can_take_function(param->type.tree.get())) continue; // this overload refuses it
        if (!chosen) {
            if (!param->type.tree || param->type.tree->kind != TypeExpr::Kind::Function) return nullptr;
            chosen = p;
            chosen_param = param;
        } else if (!same_params_but(*chosen, *p, chosen_param, param)) {
            return nullptr; // it might accept a call the chosen one refuses
        }
    }
    return chosen_param ? chosen_param->type.tree.get() : nullptr;
}

} // namespace spl
