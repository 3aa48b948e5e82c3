// parser.h — tokens to the syntax tree (recursive descent).
//
// Precedence, lowest first:
//   lambda `\x: e` · `or` · `and` · `not` · comparisons (== != < <= > >= in, not in)
//   · `??` · ranges (.. ..=) · + - · * / % @ · `as` · unary - + · `**` (right)
//   · postfix: call, `.name`, `[index]`, `?`
// Types are parsed into trees by type_expr.h's grammar, over the same tokens. The parser itself:
// parser_impl.h, defined by parse_statements.cpp, parse_expressions.cpp and parse_patterns.cpp.
#pragma once

#include <memory>
#include <string>

#include "syntax/ast.h"
#include "base/source.h"

namespace spl {

// Parses a whole file; throws ProgramError (ErrorKind::Syntax).
std::unique_ptr<ast::Module> parse_module(const SourceFile& file);

} // namespace spl
