// expr_text.h — an expression printed back as Simple source, for messages that quote the
// program (a warning's `(s + 1) / WARMUP` and the fix it suggests). Operators get the
// parentheses their precedence needs, so `(a + b) * c` prints as written; forms a message
// never quotes (lambdas, blocks) print as `...`.
#pragma once

#include <string>

#include "syntax/ast.h"

namespace spl {

// How tightly an expression binds, as the parser's table ranks it: 1 `or` ... 8 `* / % @`,
// 9 `as`, 10 prefix `-`, 11 `**`, 12 postfix forms and atoms.
int expr_precedence(const ast::Expr& e);

std::string expr_text(const ast::Expr& e);

// expr_text, in parentheses when it binds more loosely than `precedence` (`(s + 1)` before `as`).
std::string expr_text_at(const ast::Expr& e, int precedence);

} // namespace spl
