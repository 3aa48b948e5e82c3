// word_ffi.h — `splrun --simple-runtime-ffi`: native code reached the way the
// real Simple interpreter reaches it, and no other way.
//
// The real runtime (ormastes/simple, interpreter_extern/wsffi.rs) opens no
// plugins and makes no boxed calls: a Simple library loads a shared library
// itself with `spl_dlopen`, looks functions up with `spl_dlsym` and calls them
// with `spl_wffi_call_i64` (i64 words in, an i64 word out), moving floats and
// text through bit casts and C-string pointers. In this mode every `extern fn`
// resolves against that fixed set of built-ins, so a library that runs here
// (lib.torch's word-call flavour) needs nothing the real runtime lacks.
#pragma once

#include "syntax/ast.h"
#include "base/value.h"

namespace spl {

// The runtime built-in that `decl` declares, as the value its global holds
// (called like any builtin). Throws ProgramError (ErrorKind::Load) at the
// declaration when the runtime has no built-in of that name, or when the
// declared parameter types or result differ from the built-in's.
Value bind_word_extern(const ast::ExternDecl& decl);

} // namespace spl
