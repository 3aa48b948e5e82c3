// Fuzzes the host's front end (host/syntax/: lexer, parser, type_expr; host/resolve/resolver.cpp): the
// input is a Simple source file, lexed, parsed and resolved as splrun does before running a
// module (host/eval/module_loader.cpp; `use` statements stay unbound, so their names are unknown).
// A bad program must be a ProgramError; any other exception, or a crash, is a finding.
#include "base/diagnostics.h"
#include "eval/builtins.h"
#include "eval/site_cache.h"
#include "resolve/objects.h"
#include "syntax/parser.h"
#include "resolve/resolver.h"
#include "base/source.h"

#include <cstdint>
#include <deque>
#include <string>

namespace {

// The caches the resolver attaches to sites and functions, owned here as the interpreter owns them.
struct Caches final : spl::CacheAllocator {
    std::deque<spl::SiteCache> sites;
    std::deque<spl::BodyCache> bodies;
    spl::SiteCache* new_site() override { return &sites.emplace_back(); }
    spl::BodyCache* new_body() override { return &bodies.emplace_back(); }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const spl::SourceFile file("fuzz.spl", std::string(reinterpret_cast<const char*>(data), size));
    Caches caches;
    try {
        auto* m = new spl::ModuleObj("fuzz", "fuzz.spl");
        const spl::Value module(m);
        m->ast = spl::parse_module(file);
        spl::resolve_module(*m, caches, spl::builtin_names());
    } catch (const spl::ProgramError&) {}
    return 0;
}
