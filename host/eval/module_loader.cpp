// Finds `use` modules on the library roots, loads each once and binds what it exports.
#include "eval/module_loader.h"

#include <cstdlib>

#include "eval/builtins.h"
#include "base/diagnostics.h"
#include "eval/interpreter.h"
#include "syntax/parser.h"
#include "resolve/resolver.h"
#include "ffi/search_paths.h"

namespace spl {

namespace {

std::string dir_of(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string join(const std::vector<std::string>& parts, size_t from, const char* sep) {
    std::string out;
    for (size_t i = from; i < parts.size(); ++i) {
        if (i > from) out += sep;
        out += parts[i];
    }
    return out;
}

const char* const kSpecNames[] = {"describe",    "context",    "it",   "expect", "expect_error",
                                  "before_each", "after_each", "skip", "fail"};

} // namespace

ModuleLoader::ModuleLoader(Interpreter& in, std::vector<std::string> lib_roots)
    : in_(in), roots_(std::move(lib_roots)) {
    for (const std::string& r : roots_) {
        std::string real = real_path(r);
        if (!real.empty()) real_roots_.push_back(real + "/");
    }
}

// By the path as found (a root's files may be links out of it, as a build tree's lib.torch is)
// or by the real path (a root reached through a link).
bool ModuleLoader::under_a_root(const std::string& file) const {
    for (const std::string& root : roots_)
        if (!root.empty() && file.compare(0, root.size(), root) == 0 &&
            (file.size() > root.size() && (root.back() == '/' || file[root.size()] == '/')))
            return true;
    std::string real = real_path(file);
    for (const std::string& root : real_roots_)
        if (real.compare(0, root.size(), root) == 0) return true;
    return false;
}

std::string ModuleLoader::find_file(const std::vector<std::string>& path, const ModuleObj& from,
                                    std::vector<std::string>* tried) const {
    return find_module_file(path, from.path, roots_, tried);
}

std::string find_module_file(const std::vector<std::string>& path, const std::string& importer,
                             const std::vector<std::string>& roots, std::vector<std::string>* tried) {
    if (path.empty()) return "";
    std::vector<std::string> bases;
    size_t first = 0;
    if (path[0] == "lib") {
        first = 1;
        bases = roots;
    } else {
        bases.push_back(dir_of(importer));
        bases.insert(bases.end(), roots.begin(), roots.end());
    }
    if (first >= path.size()) return "";
    std::string rel = join(path, first, "/");
    for (const std::string& base : bases) {
        for (const std::string& candidate : {base + "/" + rel + ".spl", base + "/" + rel + "/__init__.spl"}) {
            if (tried) tried->push_back(candidate);
            if (is_file(candidate)) return candidate;
        }
    }
    return "";
}

ModuleObj* ModuleLoader::import(const std::vector<std::string>& path, const ModuleObj& from, SourceLoc loc) {
    std::vector<std::string> tried;
    std::string file = find_file(path, from, &tried);
    std::string name = join(path, 0, ".");
    if (file.empty()) {
        ProgramError e(ErrorKind::Load, "cannot find module `" + name + "`", loc);
        std::string where;
        for (const auto& t : tried) where += "\n     " + t;
        e.notes.push_back("searched (set SIMPLE_LIB or -L to add library roots):" + where);
        throw e;
    }
    auto it = cache_.find(file);
    if (it != cache_.end()) {
        auto* m = it->second.as<ModuleObj>();
        if (m->loading) {
            std::string chain;
            for (const auto& l : loading_) chain += l + " -> ";
            throw_error(ErrorKind::Load, loc, "circular import: " + chain + name);
        }
        return m;
    }
    Value v = load_file(file, name);
    return v.as<ModuleObj>();
}

// Loads what each `use` names and records the bindings it makes.
void ModuleLoader::bind_uses(ModuleObj& m) {
    for (auto& sp : m.ast->init.body.stmts) {
        if (sp->kind != ast::StmtKind::Use) continue;
        auto& u = static_cast<ast::Use&>(*sp);
        u.bindings.clear();
        if (u.path.size() >= 2 && u.path[0] == "std" && u.path[1] == "spec") {
            // Built in: the names are builtins already; only check them.
            for (size_t i = 0; i < u.names.size(); ++i) {
                bool known = false;
                for (const char* n : kSpecNames) known |= u.names[i] == n;
                if (!known) throw_error(ErrorKind::Load, u.name_locs[i], "std.spec has no `" + u.names[i] + "`");
            }
            continue;
        }
        bool whole_module = !u.star && u.names.empty();
        ModuleObj* source = nullptr;
        if (whole_module) {
            // `use a.b.c`: the module a.b.c itself, or the name c of module a.b.
            if (!find_file(u.path, m, nullptr).empty() || u.path.size() < 2) {
                source = import(u.path, m, u.loc);
                u.bindings.push_back(
                    ast::UseBinding{u.alias.empty() ? u.path.back() : u.alias, source, -1, u.loc, nullptr});
                continue;
            }
            std::vector<std::string> parent(u.path.begin(), u.path.end() - 1);
            // A parent still loading cannot give the name yet: a module a.b.c that is not there
            // (a file missing from a library tree) is what went wrong, not a cycle.
            const std::string parent_file = find_file(parent, m, nullptr);
            auto loading = cache_.find(parent_file);
            if (loading != cache_.end() && loading->second.as<ModuleObj>()->loading)
                import(u.path, m, u.loc); // raises "cannot find module `a.b.c`", naming where it looked
            source = import(parent, m, u.loc);
            u.names.push_back(u.path.back());
            u.aliases.push_back(u.alias);
            u.name_locs.push_back(u.loc);
        } else {
            source = import(u.path, m, u.loc);
        }
        if (u.star) {
            for (size_t g = 0; g < source->global_names.size(); ++g) {
                const std::string& n = source->global_names[g];
                // A module's __getattr__ answers for it alone (PEP 562), never for its importer.
                if (source->exports_name(n) && n != "__getattr__")
                    u.bindings.push_back(ast::UseBinding{n, source, static_cast<int>(g), u.loc, nullptr});
            }
            continue;
        }
        for (size_t i = 0; i < u.names.size(); ++i) {
            const std::string& n = u.names[i];
            int g = source->find_global(n);
            std::string local = u.aliases[i].empty() ? n : u.aliases[i];
            if (g < 0 || !source->exports_name(n)) {
                if (const Value* hook = source->getattr_hook()) {
                    // PEP 562: the module's __getattr__ answers a name it does not export; an error it
                    // raises is the error of this `use`, at the name.
                    ast::UseBinding b{local, source, -1, u.name_locs[i], nullptr};
                    b.from_getattr = true;
                    b.value = in_.call_with(*hook, {make_str(n)}, u.name_locs[i]);
                    u.bindings.push_back(std::move(b));
                    continue;
                }
            }
            if (g < 0) throw_error(ErrorKind::Load, u.name_locs[i], "module `" + source->name + "` has no `" + n + "`");
            if (!source->exports_name(n))
                throw_error(ErrorKind::Load, u.name_locs[i],
                            "`" + n + "` is not exported by module `" + source->name + "`");
            u.bindings.push_back(ast::UseBinding{local, source, g, u.name_locs[i], nullptr});
        }
    }
}

Value ModuleLoader::load_file(const std::string& file, const std::string& name) {
    const bool main_file = name == file; // the program or a spec: never library code
    const SourceFile* src = in_.sources().load(file, !main_file && under_a_root(file));
    if (!src) throw_error(ErrorKind::Load, SourceLoc{}, "cannot read " + file);
    auto* m = new ModuleObj(name, file);
    Value v(m);
    m->ast = parse_module(*src);
    const bool cached = !main_file; // main files are not cached
    if (cached) cache_[file] = v;
    loading_.push_back(name);
    try {
        bind_uses(*m);
        resolve_module(*m, in_, builtin_names());
        if (main_file) last_main_ = v; // kept even if its top level stops (main_module)
        in_.execute_module(*m);
    } catch (...) {
        loading_.pop_back();
        if (cached) cache_.erase(file); // a later import reports the error again
        throw;
    }
    loading_.pop_back();
    m->loading = false;
    order_.push_back(v);
    return v;
}

Value ModuleLoader::load_main(const std::string& path) { return load_file(path, path); }

void ModuleLoader::retire(const Value& module) {
    auto* m = module.as<ModuleObj>();
    m->clear_globals(false);
    m->clear_globals(true);
}

const ModuleObj* ModuleLoader::main_module() const {
    return last_main_.is_nil() ? nullptr : last_main_.as<ModuleObj>();
}

void ModuleLoader::release_all() {
    if (!last_main_.is_nil()) { // when its top level stopped, it is not in order_
        last_main_.as<ModuleObj>()->clear_globals(false);
        last_main_.as<ModuleObj>()->clear_globals(true);
    }
    // Every module's data first (objects die while all code still exists).
    for (size_t i = order_.size(); i-- > 0;) order_[i].as<ModuleObj>()->clear_globals(false);
    for (size_t i = order_.size(); i-- > 0;) order_[i].as<ModuleObj>()->clear_globals(true);
    // The modules themselves (and their syntax trees) stay until the loader
    // goes: functions still held by classes point into them.
}

} // namespace spl
