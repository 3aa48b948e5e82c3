// The SSpec runner behind `splrun test`: groups, examples, hooks, matchers and the summary line.
#include "eval/sspec.h"

#include <cmath>

#include "base/arity.h"
#include "eval/builtins.h"

namespace spl {

namespace {

const char* const kPass = "\xE2\x9C\x93"; // ✓
const char* const kFail = "\xE2\x9C\x97"; // ✗
const char* const kDash = "\xE2\x80\x94"; // —

const std::string& text_arg(Interpreter& in, ArgList& args, int i, const char* fn, SourceLoc loc) {
    if (!args[i].is(ObjType::Str))
        runtime_error(loc, std::string("`") + fn + "` expects a text, found " + in.type_name(args[i]));
    return str_of(args[i]);
}

void check_callable(Interpreter& in, const Value& v, const char* fn, SourceLoc loc) {
    if (!v.is(ObjType::Function) && !v.is(ObjType::BoundMethod) && !v.is(ObjType::Builtin) && !v.is(ObjType::Overloads))
        runtime_error(loc, std::string("`") + fn + "` expects a block or a lambda, found " + in.type_name(v));
}

Value b_describe(Interpreter& in, ArgList& args, SourceLoc loc) {
    const std::string& name = text_arg(in, args, 0, "describe", loc);
    check_callable(in, args[1], "describe", loc);
    in.spec().group(name, args[1], loc);
    return Value();
}

Value b_it(Interpreter& in, ArgList& args, SourceLoc loc) {
    const std::string& name = text_arg(in, args, 0, "it", loc);
    check_callable(in, args[1], "it", loc);
    in.spec().example(name, args[1], loc);
    return Value();
}

// skip("reason") inside an example; skip "name": block to skip an example.
Value b_skip(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::string text = args.count ? text_arg(in, args, 0, "skip", loc) : std::string("skipped");
    if (args.count == 2) {
        in.spec().skipped_example(text, "");
        return Value();
    }
    if (!in.spec().in_example()) runtime_error(loc, "`skip(reason)` can only be used inside `it`");
    throw SpecSkip(text);
}

Value b_before_each(Interpreter& in, ArgList& args, SourceLoc loc) {
    check_callable(in, args[0], "before_each", loc);
    in.spec().add_hook(true, args[0], loc);
    return Value();
}

Value b_after_each(Interpreter& in, ArgList& args, SourceLoc loc) {
    check_callable(in, args[0], "after_each", loc);
    in.spec().add_hook(false, args[0], loc);
    return Value();
}

Value b_expect(Interpreter& in, ArgList& args, SourceLoc loc) {
    return Value(new ExpectationObj(args[0], false, in.spec().expect_call(loc)));
}

// fail("message"): fails the example with that message.
Value b_fail(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::string text = text_arg(in, args, 0, "fail", loc);
    if (!in.spec().in_example()) runtime_error(loc, "`fail(message)` can only be used inside `it`");
    throw SpecFailure(text, loc);
}

// expect_error(\: expr, "part of the message"): passes when calling the
// lambda raises a runtime error (or returns Err) whose message contains the text.
Value b_expect_error(Interpreter& in, ArgList& args, SourceLoc loc) {
    check_callable(in, args[0], "expect_error", loc);
    in.spec().note_expectation();
    std::string wanted = args.count > 1 ? text_arg(in, args, 1, "expect_error", loc) : std::string();
    std::string message;
    bool raised = false;
    try {
        Value r = in.call_with(args[0], {}, loc);
        if (r.is(ObjType::Variant) && r.as<VariantObj>()->type == in.result_type() && r.as<VariantObj>()->index == 1) {
            raised = true;
            message = in.display(r.as<VariantObj>()->payload[0], loc);
        }
    } catch (const SpecFailure&) {
        throw;
    } catch (const ProgramError& e) {
        raised = true;
        message = e.message;
    }
    if (!raised)
        throw SpecFailure("expected an error" + (wanted.empty() ? std::string() : " containing \"" + wanted + "\"") +
                              ", but none was raised",
                          loc);
    if (message.find(wanted) == std::string::npos)
        throw SpecFailure("expected an error containing \"" + wanted + "\", got \"" + message + "\"", loc);
    return make_str(message);
}

} // namespace

void add_spec_builtins(std::vector<BuiltinDef>& t) {
    t.push_back({"describe", b_describe, 2, 2, false});
    t.push_back({"context", b_describe, 2, 2, false});
    t.push_back({"it", b_it, 2, 2, false});
    t.push_back({"skip", b_skip, 0, 2, false});
    t.push_back({"before_each", b_before_each, 1, 1, false});
    t.push_back({"after_each", b_after_each, 1, 1, false});
    t.push_back({"expect", b_expect, 1, 1, false});
    t.push_back({"expect_error", b_expect_error, 1, 2, false});
    t.push_back({"fail", b_fail, 1, 1, false});
}

// ---------------------------------------------------------------- runner

void SpecRunner::begin_file(const std::string& path) {
    groups_.clear();
    file_start_ = examples_run();
    in_.out(path + "\n");
}

void SpecRunner::end_file() {
    if (examples_run() > file_start_) return;
    ++failed_;
    in_.out(std::string("  ") + kFail + " (file) " + kDash +
            " no examples: a spec file must define at least one `it`\n");
}

std::shared_ptr<ExpectCall> SpecRunner::expect_call(SourceLoc loc) {
    auto call = std::make_shared<ExpectCall>();
    call->loc = loc;
    if (in_example_) expects_.push_back(call);
    return call;
}

void SpecRunner::group(const std::string& name, const Value& body, SourceLoc loc) {
    if (in_example_) runtime_error(loc, "`describe`/`context` cannot be nested inside `it`");
    in_.out(indent(1) + name + "\n");
    groups_.push_back(Group{name, {}, {}});
    try {
        in_.call_with(body, {}, loc);
    } catch (const ProgramError& e) {
        // An error in the group's own code (not in an example): one failure.
        in_.out(indent(1) + kFail + " " + name + " " + kDash + " error outside any example\n");
        ++failed_;
        in_.report_error(e);
    }
    groups_.pop_back();
}

void SpecRunner::add_hook(bool before, const Value& fn, SourceLoc loc) {
    if (groups_.empty()) runtime_error(loc, "`before_each`/`after_each` must be inside `describe`");
    (before ? groups_.back().before : groups_.back().after).push_back(fn);
}

void SpecRunner::fail_line(const std::string& name, const ProgramError& e) {
    bool expectation = dynamic_cast<const SpecFailure*>(&e) != nullptr;
    std::string reason = expectation ? e.message : "error: " + e.message;
    SourceLoc at = report_location(e); // the spec's own line, for an error raised in a library
    if (at.known()) reason += " (at " + at.str() + ")";
    in_.out(indent(1) + kFail + " " + name + " " + kDash + " " + reason + "\n");
    if (!expectation) { // the full report, for runtime errors
        std::string text = format_error(e);
        std::string padded;
        size_t start = 0;
        while (start < text.size()) {
            size_t nl = text.find('\n', start);
            if (nl == std::string::npos) nl = text.size();
            padded += indent(2) + text.substr(start, nl - start) + "\n";
            start = nl + 1;
        }
        in_.out(padded);
    }
}

void SpecRunner::example(const std::string& name, const Value& body, SourceLoc loc) {
    if (in_example_) runtime_error(loc, "`it` cannot be nested inside `it`");
    in_example_ = true;
    expectations_ = 0;
    expects_.clear();
    std::string skip_reason;
    bool skipped = false;
    std::unique_ptr<ProgramError> error;
    auto run = [&](const Value& fn) {
        try {
            in_.call_with(fn, {}, loc);
        } catch (const SpecFailure& e) {
            if (!error) error = std::make_unique<SpecFailure>(e);
        } catch (const ProgramError& e) {
            if (!error) error = std::make_unique<ProgramError>(e);
        } catch (const SpecSkip& s) {
            skipped = true;
            skip_reason = s.reason;
        }
    };
    for (const Group& g : groups_)
        for (const Value& h : g.before)
            if (!error && !skipped) run(h);
    if (!error && !skipped) run(body);
    for (size_t i = groups_.size(); i-- > 0;)
        for (const Value& h : groups_[i].after) run(h);
    in_example_ = false;
    // An example that checks nothing must not pass: a bare `expect(x)` first (it names the line).
    if (!error && !skipped) {
        for (const auto& call : expects_)
            if (!call->matched) {
                error = std::make_unique<SpecFailure>("expect(...) without a matcher", call->loc);
                break;
            }
    }
    if (!error && !skipped && expectations_ == 0)
        error = std::make_unique<SpecFailure>(
            "no expectation: the example calls no matcher (`expect(x).to_...`, `expect_error`)", loc);
    expects_.clear();
    if (error) {
        ++failed_;
        fail_line(name, *error);
    } else if (skipped) {
        skipped_example(name, skip_reason);
    } else {
        ++passed_;
        in_.out(indent(1) + kPass + " " + name + "\n");
    }
}

void SpecRunner::skipped_example(const std::string& name, const std::string& reason) {
    ++skipped_;
    in_.out(indent(1) + "- " + name + (reason.empty() ? " (skipped)" : " (skipped: " + reason + ")") + "\n");
}

void SpecRunner::file_error(const ProgramError& e) {
    ++failed_;
    in_.out(std::string("  ") + kFail + " (file) " + kDash + " could not run: " + e.message + "\n");
    in_.report_error(e);
}

void SpecRunner::print_summary() {
    std::string line = "\n" + std::to_string(passed_) + " passed, " + std::to_string(failed_) + " failed";
    if (skipped_ > 0) line += ", " + std::to_string(skipped_) + " skipped";
    in_.out(line + "\n");
}

// ---------------------------------------------------------------- matchers

Value call_matcher(Interpreter& in, const Value& expectation, const std::string& name, ArgList& args, SourceLoc loc) {
    auto* ex = expectation.as<ExpectationObj>();
    ex->call->matched = true;
    in.spec().note_expectation();
    const Value& actual = ex->actual;
    if (args.has_names()) runtime_error(loc, "matchers do not take named arguments");
    auto arity = [&](int n) {
        if (args.count != n)
            arity_error(loc, Arity{name, static_cast<size_t>(n), static_cast<size_t>(n)},
                        static_cast<size_t>(args.count));
    };
    auto show = [&](const Value& v) { return in.repr(v, loc); };
    std::string not_word = ex->negated ? "not " : "";
    // `ok` is the matcher's verdict before `.not`; `what` completes "expected <actual> to ...".
    auto verdict = [&](bool ok, const std::string& what) {
        if (ok != ex->negated) return Value();
        throw SpecFailure("expected " + show(actual) + " " + not_word + "to " + what, loc);
    };
    if (name == "to_equal" || name == "to_be") {
        arity(1);
        return verdict(in.equal(actual, args[0], loc), "equal " + show(args[0]));
    }
    if (name == "to_be_close") {
        if (args.count < 1 || args.count > 2) arity(1);
        double tol = args.count > 1 && args[1].is_number() ? args[1].to_double() : 1e-6;
        if (!actual.is_number() || !args[0].is_number())
            runtime_error(loc, "`to_be_close` compares numbers, found " + in.type_name(actual) + " and " +
                                   in.type_name(args[0]));
        return verdict(std::fabs(actual.to_double() - args[0].to_double()) <= tol,
                       "be within " + format_float(tol) + " of " + show(args[0]));
    }
    if (name == "to_contain") {
        arity(1);
        Value r = in.binary(ast::BinOp::In, args[0], actual, loc);
        return verdict(r.is_bool() && r.as_bool(), "contain " + show(args[0]));
    }
    if (name == "to_be_greater_than" || name == "to_be_less_than") {
        arity(1);
        int c = in.compare(actual, args[0], loc);
        bool greater = name == "to_be_greater_than";
        return verdict(greater ? c > 0 : c < 0,
                       std::string(greater ? "be greater than " : "be less than ") + show(args[0]));
    }
    if (name == "to_be_true") {
        arity(0);
        return verdict(actual.is_bool() && actual.as_bool(), "be true");
    }
    if (name == "to_be_false") {
        arity(0);
        return verdict(actual.is_bool() && !actual.as_bool(), "be false");
    }
    if (name == "to_be_nil" || name == "to_be_none") {
        arity(0);
        return verdict(actual.is_nil(), "be nil");
    }
    if (name == "to_be_some") {
        arity(0);
        return verdict(!actual.is_nil(), "be present (not nil)");
    }
    auto is_result = [&](uint32_t index) {
        return actual.is(ObjType::Variant) && actual.as<VariantObj>()->type == in.result_type() &&
               actual.as<VariantObj>()->index == index;
    };
    if (name == "to_be_ok") {
        arity(0);
        return verdict(is_result(0), "be Ok");
    }
    if (name == "to_be_err") {
        arity(0);
        return verdict(is_result(1), "be Err");
    }
    if (name == "to_have_length") {
        arity(1);
        Value subject = actual;
        ArgList one{&subject, 1};
        Value n = builtin_table()[static_cast<size_t>(find_builtin("len"))].fn(in, one, loc);
        return verdict(in.equal(n, args[0], loc),
                       "have length " + show(args[0]) + " (it has " + in.display(n, loc) + ")");
    }
    if (name == "to_start_with" || name == "to_end_with") {
        arity(1);
        if (!actual.is(ObjType::Str) || !args[0].is(ObjType::Str)) runtime_error(loc, "`" + name + "` compares texts");
        const std::string &s = str_of(actual), &t = str_of(args[0]);
        bool ok = name == "to_start_with" ? s.rfind(t, 0) == 0
                                          : s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
        return verdict(ok, (name == "to_start_with" ? "start with " : "end with ") + show(args[0]));
    }
    runtime_error(loc, "unknown matcher `" + name + "`");
}

} // namespace spl
