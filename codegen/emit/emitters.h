// Layer 3: emitters. Each formats one kind of output from a BoundSet and
// decides nothing about types (that is api/type_table.cpp's job).
#pragma once

#include "api/bound_set.h"
#include "api/simple_api.h"
#include "api/simple_signature.h"

#include <string>
#include <vector>

namespace codegen::emit {

struct OutputFile {
    std::string name; // relative to the output directory
    std::string content;
};

// The stamp every generated file carries (comment syntax given by `prefix`).
std::string banner(const OperatorSet& ir, const std::string& prefix);

// `extern fn rt_torch_x(a: i64, b: any = 1) -> i64`: the Simple declaration,
// shared by ffi.spl and the registration table so that they cannot drift.
std::string simple_declaration(const api::OperatorBinding& b);

// The C++ entry points, in `shards` translation units ops_NN.cpp, and the C
// header spl_torch_ops.h declaring every typed entry point.
std::vector<OutputFile> emit_cpp(const api::BoundSet& set, int shards);
// registry.cpp: the SplFunction table handed to hosts.
OutputFile emit_registry(const api::BoundSet& set);
// ops.spl: lib.torch's generated functions and Tensor methods (api/simple_api.h). With a
// `reference` (the pin's IR, bound), also every function and method it has and this
// LibTorch lacks, raising an error that names the operator (api::absent_callables).
OutputFile emit_spl_api(const api::BoundSet& set, const api::Policy& policy, const api::BoundSet* reference);
// ffi.spl: one `extern fn` per entry point; with a `reference`, a raising `fn` for each of
// its entry points this LibTorch lacks (the hand-written library calls some directly).
OutputFile emit_spl(const api::BoundSet& set, const api::BoundSet* reference);
// The raising functions that stand in, in ffi.spl, for the entry points of `reference`
// that `set` lacks ("" without a reference).
std::string absent_entry_point_functions(const api::BoundSet& set, const api::BoundSet* reference);
// lib.torch's word flavour, for the real Simple runtime (spl_stubs/word/word_call.spl): an
// ffi.spl and a core_ffi.spl whose functions have the raw declarations' names and parameters
// and call the plugin's word adapters through word_call. `extras` are core_ffi.spl's declarations.
OutputFile emit_word_ffi(const api::BoundSet& set, const api::BoundSet* reference);
OutputFile emit_word_core_ffi(const OperatorSet& ir, const std::vector<api::SimpleSignature>& extras);
// manifest.sdn: the real runtime's plugin manifest entry naming `library` and its word functions.
OutputFile emit_manifest(const api::BoundSet& set, const std::vector<api::SimpleSignature>& extras,
                         const std::string& library, const std::string& version);
// type-table.md: the type table (api/type_table.cpp) as documentation.
OutputFile emit_type_doc(const OperatorSet& ir);
// coverage.txt: counts, and every exclusion with its reason.
OutputFile emit_coverage(const api::BoundSet& set);
// The one-paragraph summary printed by the generator.
std::string coverage_summary(const api::BoundSet& set);

void write_files(const std::string& out_dir, const std::vector<OutputFile>& files);

} // namespace codegen::emit
