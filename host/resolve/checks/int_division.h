// int_division.h — integer division whose result flows into a float: `/` on two i64s truncates
// toward zero in Simple (7 / 2 == 3), where Python's `/` gives 3.5. Code ported from Python
// then computes 0 where it meant 0.1 (`min(1.0, (s + 1) / WARMUP)` as a learning-rate factor),
// silently. Simple keeps the meaning of `/`; this pass finds the divisions whose result meets a
// float, for two users:
//
// * splrun, while it runs: each such division of the program's own files is watched
//   (eval/int_division_watch.h), and the first time it truncates (a nonzero remainder) where
//   its result does meet a float, a warning names the line and the fix. Nothing is added to
//   the arithmetic the program does elsewhere.
// * `splrun check`: a division it can prove has two i64 operands, in a float context, is a
//   warning without running anything. No false alarms: when a type is not certain, nothing.
//
// A float context: the other operand of arithmetic or a comparison is an f64 (`x / n * 0.5`,
// `i / 2 < 0.5`), through i64 arithmetic that meets one (`lr * (1 - s / n)`); an argument of
// `min` / `max` beside an f64; `as f64` / `as f32`; the value of a function declared `-> f64`
// (returned or last); a `val`/`var`, parameter default or field declared f64; an argument of a
// function of the module whose parameter is declared f64. Types come from the text alone:
// literals, names bound only to values of one type (`val`, a `var` and all its assignments,
// declared types, for-loop variables over ranges), `len(...)`, declared parameter, field and
// result types, `as T`; for `splrun check`, a lambda's parameters and value from the function
// type an imported callee declares for it (callee_types.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "resolve/checks/callee_types.h"
#include "resolve/checks/checks.h"
#include "syntax/ast.h"

namespace spl {

// A division whose result goes somewhere a float may be.
struct DivisionSite {
    const ast::Binary* div = nullptr;
    // Float: its result meets a float whenever it is an i64. Operand: it is an operand of
    // `consumer` (arithmetic or a comparison) whose other operand's type the text does not
    // tell: the run time sees whether that is a float.
    enum class Flow : unsigned char { Float, Operand } flow = Flow::Float;
    const ast::Binary* consumer = nullptr;
    bool lhs = false;        // Operand: the division is the consumer's left operand
    bool proven_int = false; // both operands are i64 by the text alone
};

// The divisions of a module whose result may meet a float, in source order. With `callees`
// (`splrun check`), a lambda passed to an imported function takes the types its parameter
// declares (`fn(i64) -> f64`).
std::vector<DivisionSite> find_float_divisions(const ast::Module& m, const CalleeTypes* callees = nullptr);

// The warning for `div` (after "warning: "): what truncates and the two ways to write it. With
// `values` (a run: "0 here (1 / 10)") it says what the division gave.
std::string int_division_warning(const ast::Binary& div, const std::optional<std::string>& values);

// `splrun check`'s entry: each division with two proven i64 operands in a float context.
void check_int_division(const ast::Module& m, const CalleeTypes& callees, std::vector<Finding>& out);

} // namespace spl
