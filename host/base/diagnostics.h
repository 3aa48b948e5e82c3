// diagnostics.h — the one error type of the host and its rendering.
//
// Syntax errors render on one line as `file:line:col: expected X, found Y`
// (followed by the source line and a caret); every other error renders as
//     error: <message>
//       --> file:line:col
//        |
//     12 |     source line
//        |     ^
// followed by notes and the chain of calls that led to it.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "base/source.h"

namespace spl {

enum class ErrorKind {
    Syntax,  // lexer and parser
    Name,    // resolver: undefined names, bad assignments
    Load,    // modules and plugins that cannot be found, extern mismatches
    Runtime, // evaluation, including errors reported by a plugin
};

// Who raised a runtime error: `splrun check` reports the errors a plugin (LibTorch's own checks)
// and the shape types raise, and leaves the program's own errors to a run.
enum class ErrorOrigin {
    Program,   // the evaluator, a builtin, or the program's `error(...)`
    Plugin,    // an extern fn's call failed: the plugin's message
    ShapeType, // a shape type did not hold (eval/shape_checks.h)
};

struct TraceEntry {
    std::string function; // the function that was running
    SourceLoc call_site;  // where it was called from
};

class ProgramError : public std::exception {
public:
    ProgramError(ErrorKind kind, std::string message, SourceLoc loc)
        : kind(kind), message(std::move(message)), loc(loc) {}
    const char* what() const noexcept override { return message.c_str(); }

    ErrorKind kind;
    std::string message;
    SourceLoc loc;
    std::vector<std::string> notes; // extra lines printed after the source excerpt
    std::vector<TraceEntry> trace;  // innermost call first
    ErrorOrigin origin = ErrorOrigin::Program;
};

// A failed `expect(...)` in a spec. A distinct type so that `expect_error`
// (which catches runtime errors) never swallows a failing expectation.
class SpecFailure : public ProgramError {
public:
    SpecFailure(std::string message, SourceLoc loc) : ProgramError(ErrorKind::Runtime, std::move(message), loc) {}
};

// `skip("reason")` inside an example.
class SpecSkip : public std::exception {
public:
    explicit SpecSkip(std::string reason) : reason(std::move(reason)) {}
    std::string reason;
};

[[noreturn]] void throw_error(ErrorKind kind, SourceLoc loc, std::string message);
// Added where nil meets an operator or a method, since a nil there is
// usually a value not computed yet rather than a mistyped operator.
inline constexpr const char* nil_operand_hint =
    "is nil (a missing value: an optional not set, or a tensor's grad() before backward() has computed it)";

[[noreturn]] inline void runtime_error(SourceLoc loc, std::string message) {
    throw_error(ErrorKind::Runtime, loc, std::move(message));
}

// A runtime error raised with its origin (a plugin's failure, a shape type's mismatch).
[[noreturn]] void runtime_error_from(ErrorOrigin origin, SourceLoc loc, std::string message);

std::string format_error(const ProgramError& e);
// The location format_error shows first: where the error was raised, or, for
// an error raised in library code, the innermost call in the program's files.
SourceLoc report_location(const ProgramError& e);
// The source line of `loc` with a caret under its column (two lines), or "".
std::string source_excerpt(SourceLoc loc);

} // namespace spl
