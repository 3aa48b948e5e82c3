// parser.h — tokens to the syntax tree (recursive descent).
//
// Precedence, lowest first:
//   lambda `\x: e` · `or` · `and` · `not` · comparisons (== != < <= > >= in, not in)
//   · `??` · ranges (.. ..=) · + - · * / % @ · `as` · unary - + · `**` (right)
//   · postfix: call, `.name`, `[index]`, `?`
// Types are parsed into a canonical text ("[i64]", "f64?", "(text, i64)") so
// that an extern declaration can be compared with a plugin's signature.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ast.h"
#include "source.h"

namespace spl {

// Parses a whole file; throws ProgramError (ErrorKind::Syntax).
std::unique_ptr<ast::Module> parse_module(const SourceFile& file);

// The canonical form of a type written as text, e.g. a plugin's
// `simple_type`; the trimmed input when it does not parse as a type.
std::string canonical_type(std::string_view text);

} // namespace spl
