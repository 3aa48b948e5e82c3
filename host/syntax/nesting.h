// nesting.h — how deeply a program's text may nest, and the guard that counts it.
//
// The parser, the type grammar, the resolver, the evaluator and the syntax tree's
// destructors all recurse once (or a few times) per level of the tree, so a tree
// nested a million levels deep (`((((...1...))))`, `[[[[...]]]]`, a 2,000,000-term
// `1 + 1 + ...`, whose left spine is as deep as it is long) would overflow the
// machine stack. The parser refuses a tree higher than kMaxNesting levels instead (the
// lexer refuses brackets alike, before tokenizing the rest), with a syntax error at the
// token that went one level too deep; every later stage walks a tree at most that high,
// so none needs a count of its own. CPython refuses alike (a sum of a few thousand terms
// raises RecursionError in its compiler, deeply nested parentheses a SyntaxError).
//
// The limit keeps parsing, resolving and evaluating one body within a few megabytes of
// stack even with a sanitizer's larger frames; the interpreter thread's stack (main.cpp)
// holds hundreds of such. Calls nest those bodies further: each call checks the stack
// left (FrameScope, stack_limit.h), so deep recursion through deeply nested bodies ends
// in "stack overflow" too.
#pragma once

#include <string>

#include "base/diagnostics.h"
#include "base/source.h"

namespace spl {

inline constexpr int kMaxNesting = 1000;

// A parser's count: the level it is parsing at, and the highest level any part of the
// subtree being built has reached (the subtree's height above where it began).
struct NestingCount {
    int depth = 0;
    int peak = 0;
};

// One per parsing function that builds a node over subtrees. `level` puts what is parsed
// next one level above everything parsed since the guard began: nested parentheses enter
// once each; a chain folded in a loop (`a + b + c` is `(a + b) + c`, `f()()()`) enters once
// per link, above the chain so far, so the count is the tree's height and not just the
// parser's own recursion. The guard restores the depth when it ends.
class NestingGuard {
public:
    explicit NestingGuard(NestingCount& n) : n_(n), start_depth_(n.depth), outer_peak_(n.peak) { n.peak = n.depth; }
    ~NestingGuard() {
        n_.depth = start_depth_;
        if (n_.peak < outer_peak_) n_.peak = outer_peak_;
    }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

    // `what` names the construct ("parentheses"); `hint`, when given, follows the message.
    void level(SourceLoc loc, const char* what, const char* hint = nullptr) {
        if (n_.peak >= kMaxNesting)
            throw_error(ErrorKind::Syntax, loc,
                        std::string("too many nested ") + what + ": more than " + std::to_string(kMaxNesting) +
                            " levels of nesting" + (hint ? std::string("; ") + hint : std::string()));
        n_.depth = ++n_.peak;
    }

private:
    NestingCount& n_;
    int start_depth_;
    int outer_peak_;
};

} // namespace spl
