// module_loader.h — finds, loads and caches modules.
//
//   use lib.torch.{Tensor, zeros}   ->  <root>/torch.spl or <root>/torch/__init__.spl
//   use lib.torch.nn.*              ->  <root>/torch/nn.spl or <root>/torch/nn/__init__.spl
//   use lib.torch                   ->  binds the module itself as `torch`
//   use helpers.{f}                 ->  next to the importing file, then <root>/helpers...
//   use std.spec.{describe, ...}    ->  built into the host
// `lib.` names the library roots (HostOptions::lib_roots, searched in order).
// A module whose file lies under a root is *library* code (SourceFile::is_library),
// however it was named; the program's own files (the file run, each spec,
// modules beside them) are not.
// A module is loaded once; its `use`d modules are loaded (and run) before it
// is resolved, so every global name is known before it starts.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "syntax/ast.h"
#include "resolve/objects.h"

namespace spl {

class Interpreter;

// The file a `use` path names: `lib.a.b` under each library root in order, any other path
// beside the importing file first, then under the roots; `a/b.spl`, then `a/b/__init__.spl`.
// "" when there is none; `tried`, when given, gets each path looked at. (`splrun check` finds
// the imported modules' sources with it too, without loading them.)
std::string find_module_file(const std::vector<std::string>& path, const std::string& importer,
                             const std::vector<std::string>& roots, std::vector<std::string>* tried = nullptr);

class ModuleLoader {
public:
    ModuleLoader(Interpreter& in, std::vector<std::string> lib_roots);
    ModuleLoader(const ModuleLoader&) = delete;
    ModuleLoader& operator=(const ModuleLoader&) = delete;

    // Loads and runs a program file (never cached: each spec file is fresh).
    Value load_main(const std::string& path);
    // Drops a finished main module's globals now (its objects die), keeping
    // its code, which functions and classes still point into.
    void retire(const Value& module);
    // The last program file loaded whose names resolved, whether or not its top level ran to the
    // end; null before one. (`splrun check` calls its functions after the run.)
    const ModuleObj* main_module() const;
    // At the end: drops every module's globals, last loaded first.
    void release_all();

private:
    Value load_file(const std::string& file, const std::string& name);
    void bind_uses(ModuleObj& m);
    ModuleObj* import(const std::vector<std::string>& path, const ModuleObj& from, SourceLoc loc);
    std::string find_file(const std::vector<std::string>& path, const ModuleObj& from,
                          std::vector<std::string>* tried) const;
    bool under_a_root(const std::string& file) const;

    Interpreter& in_;
    std::vector<std::string> roots_;
    std::vector<std::string> real_roots_;          // roots_ resolved (realpath), for under_a_root
    std::unordered_map<std::string, Value> cache_; // by file path
    std::vector<Value> order_;                     // completed loads, in order
    std::vector<std::string> loading_;             // the import chain being loaded (cycles)
    Value last_main_;                              // main_module()
};

} // namespace spl
