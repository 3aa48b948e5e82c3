// Where the hand-written Simple library (spl_stubs/lib/torch) calls entry
// points whose declaration an upgrade changes: the functions that would
// break. Generated .spl files (ffi.spl, ops.spl: first line `# @generated`)
// are skipped, since they are regenerated from the new IR.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace codegen::diff {

struct LibraryUse {
    std::string file;     // as found under the library directory, e.g. "spl_stubs/lib/torch/tensor.spl"
    int line = 0;         // 1-based
    std::string function; // the enclosing fn, qualified by its class: "Tensor.add", "" at module level
    std::string entry_point;
    std::string change;   // the entry point's change: "removed" | "changed" | "added"
    std::string text;     // the line, trimmed
};

struct LibraryScan {
    std::vector<std::string> scanned, skipped_generated; // file paths, sorted
    std::vector<LibraryUse> uses;                        // by file, then line
};

// `changes` maps entry point -> change kind. Reads every *.spl under
// `library_dir` (recursively). Comments and docstrings are not calls.
// Throws std::runtime_error when the directory does not exist.
LibraryScan find_library_uses(const std::string& library_dir, const std::map<std::string, std::string>& changes);

} // namespace codegen::diff
