// resolver.h — binds every name of a parsed module before it runs.
//
// * local variables get frame slots (block-scoped; slots of finished blocks
//   are reused), and each block records the slots it must clear on exit;
// * a local read by a closure becomes a shared cell (Lua-style upvalues), so
//   closures see later assignments and loop variables are fresh per iteration;
// * other names become module globals or builtins — an unknown name is an
//   error before the program starts;
// * the last expression statement of each function body is marked as its
//   value (implicit return), through trailing if/match statements.
#pragma once

#include "resolve/builtin_names.h"
#include "resolve/cache_allocator.h"
#include "resolve/objects.h"

namespace spl {

// Sizes `m.globals` and annotates `m.ast`, each call, member and operator site and each
// function given its cache from `caches`. The loader must have filled the bindings of each
// `use`. Throws ProgramError (ErrorKind::Name).
// Built-in names are the ones `builtins` knows.
void resolve_module(ModuleObj& m, CacheAllocator& caches, const BuiltinNames& builtins);

} // namespace spl
