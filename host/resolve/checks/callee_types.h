// callee_types.h — what `splrun check` knows of the functions a program imports: their declared
// parameters, read from the imported modules' sources, which are parsed, never run.
//
// A check that meets `LambdaLR(opt, \s: (s + 1) / WARMUP)` asks which function `LambdaLR`
// names and what its parameter `lr_lambda` is declared as: `fn(i64) -> f64` tells it that `s`
// is an i64 and the lambda's value meets a float. The declarations collected for a name
// `use`d by the program: the module's functions of that name (an overload set), a class's
// `static fn new` overloads (`C(...)` calls them), following `export use` re-exports (and a
// `use` whose name an `export` line lists) a few levels. A module that cannot be found or
// parsed gives nothing: a check then knows nothing of its names, and says nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/source.h"
#include "syntax/ast.h"

namespace spl {

// The file a `use` path names, looked for as the module loader looks (beside the importing
// file, then the library roots); "" when there is none.
using ModuleFinder = std::function<std::string(const std::vector<std::string>& path, const std::string& importer)>;

class CalleeTypes {
public:
    CalleeTypes() = default; // knows nothing: no module is read
    explicit CalleeTypes(ModuleFinder find) : find_(std::move(find)) {}

    // Reads the declarations of the names `m` imports by name (`use a.b.{f, C as D}`) and finds
    // the modules it imports whole (`use a.b as m`: their names are read when asked for).
    void read_imports(const ast::Module& m);

    // The declarations an imported name stands for, by the `use` entry that binds it
    // (`&use.names[i]`; `&use.path.back()` for `use a.b.f`); null when nothing is known.
    const std::vector<const ast::FnProto*>* find(const void* use_name) const;
    // The declarations of `name` in a module imported whole (`m.f(...)`), by the entry that
    // binds the module (`&use.alias`, or `&use.path.back()`); null when nothing is known.
    const std::vector<const ast::FnProto*>* find_member(const void* use_module, const std::string& name) const;

    // The function type declared for the argument a call passes at `index` (positional, or by
    // `name` when not empty) to one of `overloads`; null unless certain. Overloads are tried in
    // order and the first that accepts runs: the first whose parameter there can take a
    // function decides, when it is a function type and every later one that could take the
    // function has the same other parameters (so they refuse whatever it refuses).
    static const TypeExpr* function_param(const std::vector<const ast::FnProto*>& overloads, size_t index,
                                          const std::string& name);

private:
    // Parsing and collecting fill caches; a lookup of a whole module's name does it lazily (a
    // module such as lib.torch has thousands of names, a program calls a few).
    const ast::Module* parse(const std::string& file) const;
    void collect(const std::string& file, const std::string& name, int depth,
                 std::vector<const ast::FnProto*>& out) const;

    ModuleFinder find_;
    mutable SourceManager sources_;
    mutable std::unordered_map<std::string, std::unique_ptr<ast::Module>> modules_; // by file; null: unreadable
    std::unordered_map<const void*, std::vector<const ast::FnProto*>> names_;
    std::unordered_map<const void*, std::string> whole_modules_; // the file of a module imported whole
    mutable std::unordered_map<std::string, std::vector<const ast::FnProto*>> members_; // by "file\nname"
};

} // namespace spl
