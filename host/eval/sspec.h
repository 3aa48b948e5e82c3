// sspec.h — the SSpec test runner behind `splrun test`.
//
// `describe`/`context` run their block at once, printing a header; `it` runs
// its example at once (with the `before_each` hooks of every enclosing group,
// outermost first, and the `after_each` hooks, innermost first), printing
//     ✓ name                           passed
//     ✗ name — reason (at file:line:col)   failed
//     - name (skipped: reason)          skipped
// A failed expectation, `fail(message)`, a runtime error (a plugin error
// included) or a failing hook fails the example and the run goes on. So does
// an example that calls no matcher ("no expectation": a matcher of `expect`,
// or `expect_error`), and one that leaves an `expect(x)` without a matcher;
// a spec file that defines no example fails too. The run ends with the line
// `N passed, N failed` (`, N skipped` when any were skipped).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eval/interpreter.h"

namespace spl {

class SpecRunner {
public:
    explicit SpecRunner(Interpreter& in) : in_(in) {}

    void group(const std::string& name, const Value& body, SourceLoc loc);
    void example(const std::string& name, const Value& body, SourceLoc loc);
    void skipped_example(const std::string& name, const std::string& reason);
    void add_hook(bool before, const Value& fn, SourceLoc loc);

    void begin_file(const std::string& path);
    void file_error(const ProgramError& e); // an error outside any example: one failure
    void end_file();                        // a file that ran no example: one failure
    void print_summary();

    // `expect(x)` registers its call; a matcher (or `expect_error`) counts as the example's
    // expectation. Outside an example nothing is counted (an `expect` there is not tracked).
    std::shared_ptr<ExpectCall> expect_call(SourceLoc loc);
    void note_expectation() { ++expectations_; }

    int examples_run() const { return passed_ + failed_ + skipped_; }
    int failed() const { return failed_; }
    bool in_example() const { return in_example_; }

private:
    struct Group {
        std::string name;
        std::vector<Value> before, after;
    };
    std::string indent(size_t extra = 0) const { return std::string(2 * (groups_.size() + extra), ' '); }
    void fail_line(const std::string& name, const ProgramError& e);

    Interpreter& in_;
    std::vector<Group> groups_;
    bool in_example_ = false;
    int passed_ = 0, failed_ = 0, skipped_ = 0;
    int file_start_ = 0;                               // examples_run() when the current file began
    int expectations_ = 0;                             // matcher calls in the current example
    std::vector<std::shared_ptr<ExpectCall>> expects_; // its `expect(x)` calls
};

// Matchers of `expect(x)` (each one counts as an expectation): to_equal, to_be, to_be_close, to_contain,
// to_be_greater_than, to_be_less_than, to_be_true, to_be_false, to_be_nil,
// to_be_some, to_be_ok, to_be_err, to_have_length, to_start_with, to_end_with.
Value call_matcher(Interpreter& in, const Value& expectation, const std::string& name, ArgList& args, SourceLoc loc);

} // namespace spl
