// Recursive-descent parser for torchgen schemas. One function per grammar
// rule; the grammar is written above each rule. Whitespace is allowed between
// tokens but not inside a type, which is how torchgen writes them.
#include "model/parse.h"

#include <algorithm>
#include <array>
#include <set>

namespace codegen {

SchemaError::SchemaError(std::string origin, size_t column, const std::string& problem, std::string_view text)
    : std::runtime_error(origin + ":" + std::to_string(column) + ": " + problem + " in `" + std::string(text) + "`"),
      origin_(std::move(origin)), column_(column), problem_(problem) {}

bool is_known_base_type(std::string_view base) {
    // Dimname: named-tensor operators, present in LibTorch 1.13 (Debian's libtorch-dev).
    static constexpr std::array<std::string_view, 20> known = {
        "Generator", "ScalarType", "Tensor", "int",         "DimVector",   "float",        "str",
        "bool",      "Layout",     "Device", "DeviceIndex", "Scalar",      "MemoryFormat", "QScheme",
        "Storage",   "Stream",     "SymInt", "SymBool",     "GraphModule", "Dimname"};
    static constexpr std::string_view custom_class_prefix = "__torch__.torch.classes.";
    if (std::find(known.begin(), known.end(), base) != known.end()) return true;
    return base.size() > custom_class_prefix.size() &&
           base.substr(0, custom_class_prefix.size()) == custom_class_prefix;
}

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
// Characters of an unquoted default: `-inf`, `1e-05`, `contiguous_format`, `0.5`.
bool is_atom_char(char c) { return is_ident_char(c) || c == '.' || c == '-' || c == '+'; }

class Parser {
public:
    Parser(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

    // schema := operator_name '(' arguments ')' '->' returns
    FunctionSchema schema() {
        FunctionSchema s;
        skip_spaces();
        operator_name(s);
        expect('(', "'(' after the operator name");
        arguments(s);
        expect(')', "',' or ')' after an argument");
        skip_spaces();
        if (!accept_word("->")) fail("'->' after the arguments");
        skip_spaces();
        returns(s);
        end_of_text("end of schema after the returns");
        return s;
    }

    Type whole_type() {
        skip_spaces();
        Type t = type();
        end_of_text("end of type");
        return t;
    }

private:
    // operator_name := ident ['.' ident]
    void operator_name(FunctionSchema& s) {
        s.name = std::string(identifier("an operator name"));
        if (accept('.')) s.overload_name = std::string(identifier("an overload name after '.'"));
    }

    // arguments := [ argument_or_star (',' argument_or_star)* ]
    // argument_or_star := '*' | argument
    void arguments(FunctionSchema& s) {
        skip_spaces();
        if (peek() == ')') return;
        bool kwarg_only = false;
        bool seen_out = false;
        std::set<std::string> names;
        for (;;) {
            skip_spaces();
            if (peek() == '*') {
                if (kwarg_only) fail_at(pos_, "more than one '*' marker");
                ++pos_;
                kwarg_only = true;
                skip_spaces();
                if (peek() != ',') fail("',' and a keyword-only argument after '*'");
            } else {
                const size_t start = pos_;
                Argument a = argument(kwarg_only);
                // torchgen's rule: out= arguments are the trailing written-to
                // keyword-only ones; anything after them would be ambiguous.
                if (a.is_out)
                    seen_out = true;
                else if (seen_out)
                    fail_at(start, "non-out argument '" + a.name + "' after the out= arguments");
                if (!names.insert(a.name).second) fail_at(start, "duplicate argument name '" + a.name + "'");
                s.arguments.push_back(std::move(a));
            }
            skip_spaces();
            if (!accept(',')) break;
        }
    }

    // argument := type ident ['=' default]
    Argument argument(bool kwarg_only) {
        Argument a;
        a.type = type();
        require_space("a space between the type and the argument name");
        a.name = std::string(identifier("an argument name"));
        skip_spaces();
        if (accept('=')) {
            skip_spaces();
            a.default_value = std::string(default_value());
        }
        a.kwarg_only = kwarg_only;
        a.is_out = kwarg_only && a.type.is_written();
        return a;
    }

    // type := base [alias] ['?'] [ '[' [N] ']' ['?'] ]
    // A '?' before '[' makes the element optional (`Tensor?[]`), after it
    // the whole list (`int[]?`).
    Type type() {
        Type t;
        const size_t start = pos_;
        if (!is_ident_start(peek())) fail("a type");
        while (!at_end() && (is_ident_char(peek()) || peek() == '.')) ++pos_;
        t.base = std::string(text_.substr(start, pos_ - start));
        if (!is_known_base_type(t.base)) fail_at(start, "expected a type, found unknown type '" + t.base + "'");
        if (peek() == '(') {
            if (t.base != "Tensor")
                fail_at(pos_, "alias annotation on type '" + t.base + "' (only Tensor may carry one)");
            t.alias = alias();
        }
        bool question = accept('?');
        if (accept('[')) {
            t.is_list = true;
            t.elem_optional = question;
            if (is_digit(peek())) t.list_size = integer();
            expect(']', "']' closing the list type");
            t.optional = accept('?');
        } else {
            t.optional = question;
        }
        return t;
    }

    // alias := '(' alias_set ['!'] [ '->' ( '*' | alias_set ) ] ')'
    Alias alias() {
        Alias a;
        expect('(', "'(' opening the alias annotation");
        a.before_set = alias_set();
        a.is_write = accept('!');
        skip_spaces();
        if (accept_word("->")) {
            a.has_arrow = true;
            skip_spaces();
            if (accept('*'))
                a.after_set.push_back("*");
            else
                a.after_set = alias_set();
            skip_spaces();
        }
        expect(')', "')' closing the alias annotation");
        return a;
    }

    // alias_set := ident ('|' ident)*
    std::vector<std::string> alias_set() {
        std::vector<std::string> set;
        set.emplace_back(identifier("an alias set name such as 'a'"));
        while (accept('|')) set.emplace_back(identifier("an alias set name after '|'"));
        return set;
    }

    // default := string | '[' [default (',' default)*] ']' | atom
    // Only validated here; the caller keeps the exact text.
    std::string_view default_value() {
        const size_t start = pos_;
        default_item();
        return text_.substr(start, pos_ - start);
    }

    void default_item() {
        const char c = peek();
        if (c == '"' || c == '\'') {
            quoted_string();
        } else if (c == '[') {
            ++pos_;
            skip_spaces();
            if (accept(']')) return;
            for (;;) {
                skip_spaces();
                default_item();
                skip_spaces();
                if (accept(']')) return;
                expect(',', "',' or ']' in a list default");
            }
        } else {
            const size_t start = pos_;
            while (!at_end() && is_atom_char(peek())) ++pos_;
            if (pos_ == start) fail("a default value (number, name, string or list)");
        }
    }

    // A string default in either quote style; backslash escapes the next char.
    void quoted_string() {
        const size_t start = pos_;
        const char quote = text_[pos_++];
        while (!at_end() && text_[pos_] != quote) pos_ += (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ? 2 : 1;
        if (at_end()) fail_at(start, std::string("unterminated string default: expected a closing ") + quote);
        ++pos_;
    }

    // returns := '(' [return (',' return)*] ')' | return
    void returns(FunctionSchema& s) {
        if (accept('(')) {
            s.returns_tuple_syntax = true;
            skip_spaces();
            if (accept(')')) return;
            for (;;) {
                skip_spaces();
                s.returns.push_back(return_entry());
                skip_spaces();
                if (accept(')')) return;
                expect(',', "',' or ')' in the returns");
            }
        }
        s.returns.push_back(return_entry());
    }

    // return := type [ident]
    Return return_entry() {
        Return r;
        r.type = type();
        const size_t before_space = pos_;
        skip_spaces();
        if (pos_ > before_space && is_ident_start(peek()))
            r.name = std::string(identifier("a return name"));
        else
            pos_ = before_space;
        return r;
    }

    int64_t integer() {
        int64_t v = 0;
        while (is_digit(peek())) {
            v = v * 10 + (text_[pos_++] - '0');
            if (v > 1000000) fail("a reasonable list size");
        }
        return v;
    }

    std::string_view identifier(const char* what) {
        const size_t start = pos_;
        if (!is_ident_start(peek())) fail(what);
        while (!at_end() && is_ident_char(peek())) ++pos_;
        return text_.substr(start, pos_ - start);
    }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }
    bool accept(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    bool accept_word(std::string_view w) {
        if (text_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }
    void expect(char c, const char* what) {
        skip_spaces();
        if (!accept(c)) fail(what);
    }
    void skip_spaces() {
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
    }
    void require_space(const char* what) {
        if (peek() != ' ') fail(what);
        skip_spaces();
    }
    void end_of_text(const char* what) {
        skip_spaces();
        if (!at_end()) fail(what);
    }

    [[noreturn]] void fail(const std::string& expected) {
        fail_at(pos_, "expected " + expected + ", found " + found());
    }
    [[noreturn]] void fail_at(size_t pos, const std::string& problem) {
        throw SchemaError(origin_, pos + 1, problem, text_);
    }

    // Names what sits at the cursor: a word, one character, or the end.
    std::string found() const {
        if (at_end()) return "end of text";
        if (is_ident_char(peek())) {
            size_t end = pos_;
            while (end < text_.size() && is_ident_char(text_[end])) ++end;
            return "'" + std::string(text_.substr(pos_, end - pos_)) + "'";
        }
        return "'" + std::string(1, peek()) + "'";
    }

    std::string_view text_;
    const std::string& origin_;
    size_t pos_ = 0;
};

} // namespace

Type parse_type(std::string_view text, const std::string& origin) { return Parser(text, origin).whole_type(); }

FunctionSchema parse_schema(std::string_view text, const std::string& origin) { return Parser(text, origin).schema(); }

} // namespace codegen
