// Tokens to the syntax tree (recursive descent; operators from one precedence table).
#include "syntax/parser.h"

#include "syntax/token_cursor.h"

#include <cctype>

#include "base/diagnostics.h"
#include "syntax/lexer.h"
#include "syntax/nesting.h"
#include "base/scalar_types.h"
#include "syntax/type_expr.h"

namespace spl {

using namespace ast;

namespace {

// The parser's tokens, a base so that they exist before the cursor over them.
struct ParserTokens {
    explicit ParserTokens(std::vector<Token> toks) : toks_(std::move(toks)) {}
    std::vector<Token> toks_;
    size_t pos_ = 0;
};

class Parser : private ParserTokens, private TokenCursor {
public:
    // `depth`: the level the text starts at (an interpolation's, inside its string).
    Parser(const SourceFile& file, std::vector<Token> tokens, int depth = 0)
        : ParserTokens(std::move(tokens)), TokenCursor(toks_, pos_), file_(file), nesting_{depth, depth} {}

    std::unique_ptr<Module> parse_file();
    ExprPtr parse_fragment(); // one expression then end of input
    int nesting_peak() const { return nesting_.peak; }

private:
    // ---- token access (cur, peek, at, advance, accept, expect: TokenCursor)
    bool at_ident(std::string_view name) const { return at(Tok::Ident) && cur().text == name; }
    std::string expect_ident(const std::string& what) { return std::string(expect(Tok::Ident, what).text); }
    [[noreturn]] void fail_at(SourceLoc loc, const std::string& msg) const { throw_error(ErrorKind::Syntax, loc, msg); }
    bool prev_was_dedent() const { return pos_ > 0 && toks_[pos_ - 1].kind == Tok::Dedent; }

    // ---- statements
    StmtPtr parse_statement();
    StmtPtr parse_simple_statement();
    void end_statement();
    Block parse_indented_block();
    Block parse_branch_body();
    StmtPtr parse_if_stmt();
    StmtPtr parse_while();
    StmtPtr parse_with();
    StmtPtr parse_for();
    StmtPtr parse_match_stmt();
    void parse_match_arms(std::vector<MatchArm>& arms);
    StmtPtr parse_let();
    StmtPtr parse_fn_decl();
    std::unique_ptr<FnProto> parse_fn_proto(bool method_context, bool* has_body = nullptr);
    void parse_params(std::vector<Param>& params, bool allow_self);
    bool skip_body_filler();
    std::unique_ptr<FnProto> parse_method_member(bool allow_me, bool* has_body = nullptr);
    StmtPtr parse_class(bool is_struct);
    StmtPtr parse_enum();
    StmtPtr parse_impl();
    StmtPtr parse_trait();
    void parse_method_block(std::vector<std::unique_ptr<FnProto>>& methods, std::vector<std::string>* required,
                            const char* expected);
    StmtPtr parse_extern();
    StmtPtr parse_use(bool is_export);
    StmtPtr parse_export();
    StmtPtr skip_block_statement(SourceLoc loc); // type alias
    void skip_generics();
    StmtPtr parse_block_call(); // describe "x": ..., before_each: ...

    // ---- expressions
    ExprPtr parse_expr();
    ExprPtr parse_lambda();
    ExprPtr parse_operators(int limit); // see kInfix
    ExprPtr parse_prefixed(int limit);  // `not x`, `-x`, `+x`, or a postfix expression
    ExprPtr parse_postfix();
    ExprPtr parse_primary();
    ExprPtr parse_string(const Token& t);
    ExprPtr parse_if_expr();
    ExprPtr parse_match_expr();
    ExprPtr parse_bracket_literal();
    ExprPtr parse_brace_literal();
    ExprPtr parse_paren();
    // Returns whether an argument is a spread (`*list`, `**dict`).
    bool parse_args(std::vector<ExprPtr>& args, std::vector<std::string>& names);
    ExprPtr parse_index_item();
    void parse_comp_clauses(std::vector<CompClause>& clauses, Tok closing);

    // ---- patterns and types
    PatternPtr parse_pattern();
    PatternPtr parse_pattern_primary();
    PatternPtr parse_binding_target(); // val/for targets: names and tuples
    TypeRef parse_type();              // the type grammar is type_expr.h's

    std::string source_between(const Token& first, const Token& last) const;

    const SourceFile& file_;
    std::vector<StmtPtr> pending_exports_; // from `export fn ...`, appended after the declaration
    NestingCount nesting_;                 // how deep the tree being built is (nesting.h)
};

bool starts_upper(std::string_view s) { return !s.empty() && std::isupper(static_cast<unsigned char>(s[0])); }

// Declared f64/f32 (not `f64?`): an integer given for it becomes a float.
bool is_float_type(const TypeRef& t) {
    return t.tree && t.tree->kind == TypeExpr::Kind::Named && !t.tree->generic && find_float_type(t.tree->name);
}

std::unique_ptr<FnProto> make_block_lambda(SourceLoc loc, Block body, std::string name) {
    auto proto = std::make_unique<FnProto>();
    proto->name = std::move(name);
    proto->loc = loc;
    proto->is_lambda = true;
    proto->body = std::move(body);
    return proto;
}

// ============================================================ statements

std::unique_ptr<Module> Parser::parse_file() {
    auto m = std::make_unique<Module>();
    m->file = &file_;
    m->init.name = "<module>";
    m->init.is_module = true;
    m->init.loc = SourceLoc{&file_, 1, 1};
    while (!at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        if (at(Tok::Indent)) fail_at(cur().loc, "unexpected indentation");
        m->init.body.stmts.push_back(parse_statement());
        for (auto& e : pending_exports_) m->init.body.stmts.push_back(std::move(e));
        pending_exports_.clear();
    }
    return m;
}

ExprPtr Parser::parse_fragment() {
    ExprPtr e = parse_expr();
    if (!at(Tok::Eof)) fail_expected("`}` after the interpolated expression");
    return e;
}

void Parser::end_statement() {
    if (accept(Tok::Newline) || at(Tok::Eof) || at(Tok::Dedent)) return;
    if (prev_was_dedent()) return; // a statement that ended with a block
    fail_expected("end of line");
}

Block Parser::parse_indented_block() {
    expect(Tok::Newline, "end of line");
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "blocks");
    expect(Tok::Indent, "an indented block");
    Block b;
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        b.stmts.push_back(parse_statement());
    }
    accept(Tok::Dedent);
    return b;
}

// After a `:`: an indented block, or one simple statement on the same line
// (whose end of line is left for an `else`/`elif` that may follow it).
Block Parser::parse_branch_body() {
    if (at(Tok::Newline)) return parse_indented_block();
    Block b;
    b.stmts.push_back(parse_simple_statement());
    if (!at(Tok::KwElif) && !at(Tok::KwElse)) end_statement();
    return b;
}

StmtPtr Parser::parse_statement() {
    SourceLoc loc = cur().loc;
    switch (cur().kind) {
    case Tok::KwUse: return parse_use(false);
    case Tok::KwExport: return parse_export();
    case Tok::KwFn: return parse_fn_decl();
    case Tok::KwExtern: return parse_extern();
    case Tok::KwClass: return parse_class(false);
    case Tok::KwStruct: return parse_class(true);
    case Tok::KwEnum: return parse_enum();
    case Tok::KwImpl: return parse_impl();
    case Tok::KwTrait: return parse_trait();
    case Tok::KwIf: return parse_if_stmt();
    case Tok::KwWhile: return parse_while();
    case Tok::KwWith: return parse_with();
    case Tok::KwFor: return parse_for();
    case Tok::KwMatch: return parse_match_stmt();
    case Tok::Ident:
        if (cur().text == "pub" &&
            (peek().kind == Tok::KwFn || peek().kind == Tok::KwClass || peek().kind == Tok::KwStruct ||
             peek().kind == Tok::KwEnum || peek().kind == Tok::KwVal || peek().kind == Tok::KwVar)) {
            advance();
            return parse_statement();
        }
        if (cur().text == "type" && peek().kind == Tok::Ident && peek(2).kind == Tok::Assign)
            return skip_block_statement(loc);
        if ((peek().kind == Tok::Str || peek().kind == Tok::RawStr) && peek(2).kind == Tok::Colon)
            return parse_block_call();
        if (peek().kind == Tok::Colon && peek(2).kind == Tok::Newline) return parse_block_call();
        break;
    default: break;
    }
    StmtPtr s = parse_simple_statement();
    end_statement();
    return s;
}

StmtPtr Parser::parse_simple_statement() {
    SourceLoc loc = cur().loc;
    switch (cur().kind) {
    case Tok::KwVal:
    case Tok::KwVar:
    case Tok::KwLet: return parse_let();
    case Tok::KwPass: advance(); return std::make_unique<Stmt>(StmtKind::Pass, loc);
    case Tok::KwBreak: advance(); return std::make_unique<Stmt>(StmtKind::Break, loc);
    case Tok::KwContinue: advance(); return std::make_unique<Stmt>(StmtKind::Continue, loc);
    case Tok::KwReturn: {
        advance();
        ExprPtr value;
        if (!at(Tok::Newline) && !at(Tok::Eof) && !at(Tok::Dedent) && !at(Tok::KwElse) && !at(Tok::KwElif))
            value = parse_expr();
        return std::make_unique<Return>(loc, std::move(value));
    }
    default: break;
    }
    // `print "text"` / `print x`: a call without parentheses.
    if (at_ident("print")) {
        Tok n = peek().kind;
        // `print(...)` alone is an ordinary call; `print (a).b(), c` is the
        // statement form whose first argument happens to start with `(`.
        bool paren_statement = false;
        if (n == Tok::LParen) {
            size_t k = pos_ + 1;
            int depth = 0;
            for (; k < toks_.size(); ++k) {
                if (toks_[k].kind == Tok::LParen) ++depth;
                if (toks_[k].kind == Tok::RParen && --depth == 0) break;
                if (toks_[k].kind == Tok::Eof) break;
            }
            Tok after = k + 1 < toks_.size() ? toks_[k + 1].kind : Tok::Eof;
            paren_statement = after != Tok::Newline && after != Tok::Eof && after != Tok::Dedent &&
                              after != Tok::KwElse && after != Tok::KwElif;
        }
        if (paren_statement || n == Tok::Str || n == Tok::RawStr || n == Tok::Int || n == Tok::Float ||
            n == Tok::Ident || n == Tok::LBracket || n == Tok::KwTrue || n == Tok::KwFalse || n == Tok::KwNil ||
            n == Tok::Minus || n == Tok::KwNot) {
            auto call = std::make_unique<Call>(loc, std::make_unique<Name>(loc, "print"));
            advance();
            do call->args.push_back(parse_expr());
            while (accept(Tok::Comma));
            return std::make_unique<ExprStmt>(loc, std::move(call));
        }
    }
    ExprPtr e = parse_expr();
    AssignOp op;
    switch (cur().kind) {
    case Tok::Assign: op = AssignOp::Set; break;
    case Tok::PlusEq: op = AssignOp::Add; break;
    case Tok::MinusEq: op = AssignOp::Sub; break;
    case Tok::StarEq: op = AssignOp::Mul; break;
    case Tok::SlashEq: op = AssignOp::Div; break;
    case Tok::PercentEq: op = AssignOp::Mod; break;
    default: return std::make_unique<ExprStmt>(loc, std::move(e));
    }
    SourceLoc op_loc = cur().loc;
    advance();
    if (e->kind != ExprKind::Name && e->kind != ExprKind::Member && e->kind != ExprKind::Index)
        fail_at(op_loc, "expected a variable, field or index before the assignment");
    auto a = std::make_unique<Assign>(op_loc);
    a->target = std::move(e);
    a->op = op;
    a->value = parse_expr();
    return a;
}

StmtPtr Parser::parse_if_stmt() {
    auto s = std::make_unique<IfStmt>(cur().loc);
    advance();
    s->conds.push_back(parse_expr());
    expect(Tok::Colon, "`:` after the condition");
    s->blocks.push_back(parse_branch_body());
    while (true) {
        if (accept(Tok::KwElif)) {
            s->conds.push_back(parse_expr());
            expect(Tok::Colon, "`:` after the condition");
            s->blocks.push_back(parse_branch_body());
        } else if (accept(Tok::KwElse)) {
            expect(Tok::Colon, "`:` after `else`");
            s->else_block = std::make_unique<Block>(parse_branch_body());
            break;
        } else {
            break;
        }
    }
    return s;
}

StmtPtr Parser::parse_while() {
    auto s = std::make_unique<While>(cur().loc);
    advance();
    s->cond = parse_expr();
    expect(Tok::Colon, "`:` after the condition");
    s->body = parse_branch_body();
    return s;
}

// `with EXPR [as NAME]:` — `as` also casts (`x as i64`), so `EXPR as NAME` arrives as a cast of
// EXPR to a type NAME: a plain lower-case name that is no built-in type is the alias instead,
// as the real Simple's parser reads it (`parse_with`).
StmtPtr Parser::parse_with() {
    auto s = std::make_unique<With>(cur().loc);
    advance();
    s->resource = parse_expr();
    if (s->resource->kind == ExprKind::Cast) {
        auto& cast = static_cast<Cast&>(*s->resource);
        const TypeExpr* t = cast.type.tree.get();
        if (t && t->kind == TypeExpr::Kind::Named && !t->generic && !t->name.empty() &&
            std::islower(static_cast<unsigned char>(t->name[0])) && t->name.find('.') == std::string::npos &&
            !find_int_type(t->name) && !find_float_type(t->name) && !is_text_type_name(t->name) && t->name != "bool" &&
            t->name != "any") {
            s->alias = std::make_unique<Pattern>(PatKind::Bind, cast.loc);
            s->alias->name = t->name;
            s->resource = std::move(cast.operand);
        }
    }
    if (!s->alias && accept(Tok::KwAs)) s->alias = parse_binding_target();
    expect(Tok::Colon, "`:` after the `with` header");
    s->body = parse_branch_body();
    return s;
}

StmtPtr Parser::parse_for() {
    auto s = std::make_unique<For>(cur().loc);
    advance();
    s->target = parse_binding_target();
    if (at(Tok::Comma)) { // for i, x in ...
        auto tuple = std::make_unique<Pattern>(PatKind::Tuple, s->target->loc);
        tuple->subs.push_back(std::move(s->target));
        while (accept(Tok::Comma)) tuple->subs.push_back(parse_binding_target());
        s->target = std::move(tuple);
    }
    expect(Tok::KwIn, "`in`");
    s->iter = parse_expr();
    expect(Tok::Colon, "`:` after the loop header");
    s->body = parse_branch_body();
    return s;
}

void Parser::parse_match_arms(std::vector<MatchArm>& arms) {
    expect(Tok::Newline, "end of line after `match ...:`");
    expect(Tok::Indent, "indented `case` arms");
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        MatchArm arm;
        accept(Tok::KwCase);
        arm.pattern = parse_pattern();
        if (accept(Tok::KwIf)) arm.guard = parse_expr();
        if (!accept(Tok::Colon) && !accept(Tok::FatArrow)) fail_expected("`:` after the pattern");
        if (at(Tok::Newline)) {
            arm.body = parse_indented_block();
        } else {
            arm.body.stmts.push_back(parse_simple_statement());
            end_statement();
        }
        arms.push_back(std::move(arm));
    }
    accept(Tok::Dedent);
}

StmtPtr Parser::parse_match_stmt() {
    auto s = std::make_unique<MatchStmt>(cur().loc);
    advance();
    s->subject = parse_expr();
    expect(Tok::Colon, "`:` after the match subject");
    parse_match_arms(s->arms);
    return s;
}

StmtPtr Parser::parse_let() {
    auto s = std::make_unique<Let>(cur().loc);
    s->is_mutable = at(Tok::KwVar);
    advance();
    if (at_ident("mut")) {
        s->is_mutable = true;
        advance();
    }
    s->target = parse_binding_target();
    if (accept(Tok::Colon)) {
        s->type = parse_type();
        s->to_float = is_float_type(s->type);
    }
    if (accept(Tok::Assign)) s->init = parse_expr();
    return s;
}

void Parser::skip_generics() {
    if (!at(Tok::Lt)) return;
    int depth = 0;
    do {
        if (at(Tok::Lt)) ++depth;
        if (at(Tok::Gt)) --depth;
        if (at(Tok::Eof) || at(Tok::Newline)) fail_expected("`>` closing the generic parameters");
        advance();
    } while (depth > 0);
}

void Parser::parse_params(std::vector<Param>& params, bool allow_self) {
    expect(Tok::LParen, "`(` before the parameters");
    while (!at(Tok::RParen)) {
        Param p;
        p.loc = cur().loc;
        if (at_ident("mut") && peek().kind == Tok::Ident) advance();
        p.name = expect_ident("a parameter name");
        bool is_self = p.name == "self";
        if (accept(Tok::Colon)) {
            p.type = parse_type();
            p.to_float = is_float_type(p.type);
            if (at(Tok::DotDot) && peek().kind == Tok::Dot) { // `name: T...`
                advance();
                advance();
                const bool named = p.type.tree->kind == TypeExpr::Kind::Dict;
                for (const auto& q : params)
                    if (q.rest == (named ? Param::Rest::Named : Param::Rest::Positional))
                        fail_at(p.loc, std::string("only one variadic parameter of ") +
                                           (named ? "named" : "positional") + " arguments is allowed");
                if (!params.empty() && params.back().rest == Param::Rest::Named)
                    fail_at(p.loc, "the variadic parameter of named arguments (`name: {text: T}...`) comes last");
                p.rest = named ? Param::Rest::Named : Param::Rest::Positional;
                p.to_float = false;
            }
        }
        if (p.rest == Param::Rest::None && !params.empty() && params.back().rest == Param::Rest::Named)
            fail_at(p.loc, "the variadic parameter of named arguments (`name: {text: T}...`) comes last");
        if (at(Tok::Assign)) {
            if (p.rest != Param::Rest::None) fail_at(cur().loc, "a variadic parameter has no default (it is empty)");
            advance();
            const Token& first = cur();
            p.default_value = parse_expr();
            p.default_text = source_between(first, toks_[pos_ - 1]);
        }
        if (is_self && params.empty() && allow_self) {
            // `fn m(self, x)`: self is implicit in methods; accept and drop it.
        } else {
            for (const auto& q : params)
                if (q.name == p.name) fail_at(p.loc, "duplicate parameter `" + p.name + "`");
            params.push_back(std::move(p));
        }
        if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "`,` or `)` in the parameter list");
}

// has_body non-null (a trait's method): a signature without `:` and body is
// allowed, and *has_body says which it was.
std::unique_ptr<FnProto> Parser::parse_fn_proto(bool method_context, bool* has_body) {
    auto proto = std::make_unique<FnProto>();
    proto->loc = cur().loc;
    proto->name = expect_ident("a function name");
    skip_generics();
    parse_params(proto->params, method_context);
    if (accept(Tok::Arrow)) proto->return_type = parse_type();
    if (has_body) {
        *has_body = !at(Tok::Newline) && !at(Tok::Eof) && !at(Tok::Dedent);
        if (!*has_body) {
            end_statement();
            return proto;
        }
    }
    expect(Tok::Colon, "`:` before the function body");
    proto->body = parse_branch_body();
    return proto;
}

StmtPtr Parser::parse_fn_decl() {
    auto s = std::make_unique<FnDecl>(cur().loc);
    advance(); // fn
    s->proto = parse_fn_proto(false);
    return s;
}

StmtPtr Parser::parse_extern() {
    auto s = std::make_unique<ExternDecl>(cur().loc);
    advance();
    expect(Tok::KwFn, "`fn` after `extern`");
    s->name = expect_ident("the extern function's name");
    parse_params(s->params, false);
    for (const Param& p : s->params)
        if (p.rest != Param::Rest::None) fail_at(p.loc, "an extern function has no variadic parameter");
    if (accept(Tok::Arrow)) s->return_type = parse_type();
    std::string sig = "extern fn " + s->name + "(";
    for (size_t i = 0; i < s->params.size(); ++i) {
        const Param& p = s->params[i];
        if (i) sig += ", ";
        sig += p.name + ": " + (p.type.empty() ? "any" : p.type.text);
        if (p.default_value) sig += " = " + p.default_text;
    }
    sig += ")";
    if (!s->return_type.empty()) sig += " -> " + s->return_type.text;
    s->signature = sig;
    end_statement();
    return s;
}

// A docstring or `pass` line in a class, enum or impl body: skipped. Shared
// so the three bodies accept the same filler lines.
bool Parser::skip_body_filler() {
    if (!at(Tok::Str) && !at(Tok::RawStr) && !at(Tok::KwPass)) return false;
    advance();
    end_statement();
    return true;
}

// `[static] fn name(...)` (or, when allow_me, `me name(...)`) in a class,
// enum or impl body; null, consuming nothing, when no method starts here.
// Shared so every body marks its methods static / method / me the same way.
std::unique_ptr<FnProto> Parser::parse_method_member(bool allow_me, bool* has_body) {
    // `@property` / `@name.setter` on the line before a method (class and impl
    // bodies only): field syntax then calls it (see "Properties" in README.md).
    std::string accessor, setter_of;
    SourceLoc accessor_loc = cur().loc;
    if (allow_me && accept(Tok::At)) {
        accessor = expect_ident("`property` or `NAME.setter` after `@`");
        if (accept(Tok::Dot)) {
            setter_of = accessor;
            accessor = expect_ident("`setter` after `@" + setter_of + ".`");
        }
        if (accessor != (setter_of.empty() ? "property" : "setter"))
            fail_at(accessor_loc, "unknown decorator: only `@property` and `@NAME.setter` are supported");
        expect(Tok::Newline, "end of line after the decorator");
        while (accept(Tok::Newline)) {}
    }
    bool is_static = false;
    if (at_ident("static") && peek().kind == Tok::KwFn) {
        is_static = true;
        advance();
    }
    bool is_me = allow_me && at_ident("me") && peek().kind == Tok::Ident;
    if (is_me)
        advance();
    else if (!accept(Tok::KwFn)) {
        if (!accessor.empty()) fail_expected("a method after the decorator");
        return nullptr;
    }
    auto m = parse_fn_proto(true, has_body);
    m->is_static = is_static;
    m->is_method = !is_static;
    m->is_me = is_me;
    if (!accessor.empty()) {
        // Checked here, so that field syntax always has a call it can make.
        size_t want = setter_of.empty() ? 0 : 1;
        if (is_static || m->params.size() != want)
            fail_at(m->loc, setter_of.empty() ? "a `@property` must be a method without parameters"
                                              : "a `@" + setter_of + ".setter` must be a method with one parameter");
        m->is_property = setter_of.empty();
        m->setter_of = std::move(setter_of);
    }
    return m;
}

StmtPtr Parser::parse_class(bool is_struct) {
    auto s = std::make_unique<ClassDecl>(cur().loc);
    s->is_struct = is_struct;
    advance();
    s->name = expect_ident("a class name");
    skip_generics();
    if (at(Tok::LParen)) { // `class Linear(Module):` — traits, not inheritance
        int depth = 0;
        do {
            if (at(Tok::LParen)) ++depth;
            if (at(Tok::RParen)) --depth;
            advance();
        } while (depth > 0 && !at(Tok::Eof));
    }
    expect(Tok::Colon, "`:` after the class name");
    expect(Tok::Newline, "end of line after `class ...:`");
    expect(Tok::Indent, "an indented class body");
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        if (skip_body_filler()) continue;
        if (at_ident("pub")) advance();
        if (auto m = parse_method_member(/*allow_me=*/true)) {
            s->methods.push_back(std::move(m));
            continue;
        }
        FieldDecl f;
        f.loc = cur().loc;
        if (at(Tok::KwVal) || at(Tok::KwVar)) advance();
        f.name = expect_ident("a field or method");
        if (accept(Tok::Colon)) {
            f.type = parse_type();
            f.to_float = is_float_type(f.type);
        }
        if (accept(Tok::Assign)) f.default_value = parse_expr();
        for (const auto& g : s->fields)
            if (g.name == f.name) fail_at(f.loc, "duplicate field `" + f.name + "`");
        s->fields.push_back(std::move(f));
        end_statement();
    }
    accept(Tok::Dedent);
    return s;
}

StmtPtr Parser::parse_enum() {
    auto s = std::make_unique<EnumDecl>(cur().loc);
    advance();
    s->name = expect_ident("an enum name");
    skip_generics();
    expect(Tok::Colon, "`:` after the enum name");
    auto parse_variant = [&] {
        VariantDecl v;
        v.loc = cur().loc;
        v.name = expect_ident("a variant name");
        if (accept(Tok::LParen)) {
            while (!at(Tok::RParen)) {
                std::string field;
                if (at(Tok::Ident) && peek().kind == Tok::Colon) {
                    field = std::string(advance().text);
                    advance();
                }
                parse_type();
                v.field_names.push_back(field);
                if (!accept(Tok::Comma)) break;
            }
            expect(Tok::RParen, "`)` after the variant's payload");
        }
        for (const auto& w : s->variants)
            if (w.name == v.name) fail_at(v.loc, "duplicate variant `" + v.name + "`");
        s->variants.push_back(std::move(v));
    };
    if (!at(Tok::Newline)) { // enum Device: CPU, CUDA(i64)
        do parse_variant();
        while (accept(Tok::Comma));
        end_statement();
        return s;
    }
    expect(Tok::Newline, "end of line");
    expect(Tok::Indent, "indented variants");
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        if (skip_body_filler()) continue;
        if (auto m = parse_method_member(/*allow_me=*/false)) {
            s->methods.push_back(std::move(m));
            continue;
        }
        do parse_variant();
        while (accept(Tok::Comma));
        end_statement();
    }
    accept(Tok::Dedent);
    return s;
}

StmtPtr Parser::parse_impl() {
    auto s = std::make_unique<ImplDecl>(cur().loc);
    advance();
    skip_generics();
    s->target = expect_ident("the name of the class to extend");
    skip_generics();
    if (accept(Tok::KwFor)) {
        s->trait = s->target;
        s->target = expect_ident("the name of the class to extend");
        skip_generics();
    }
    if (!s->trait.empty() && (at(Tok::Newline) || at(Tok::Eof))) { // `impl Module for Net`: the trait's defaults only
        end_statement();
        return s;
    }
    expect(Tok::Colon, "`:` after `impl ...`");
    parse_method_block(s->methods, nullptr, "`fn` in an impl block");
    return s;
}

// The indented methods of an `impl` or `trait` block. With `required` (a
// trait), a method without a body is allowed and only its name is kept.
void Parser::parse_method_block(std::vector<std::unique_ptr<FnProto>>& methods, std::vector<std::string>* required,
                                const char* expected) {
    expect(Tok::Newline, "end of line");
    expect(Tok::Indent, "indented methods");
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
        if (accept(Tok::Newline)) continue;
        if (skip_body_filler()) continue;
        if (at_ident("pub")) advance();
        bool has_body = true;
        auto m = parse_method_member(/*allow_me=*/true, required ? &has_body : nullptr);
        if (!m) fail_expected(expected);
        if (has_body)
            methods.push_back(std::move(m));
        else
            required->push_back(m->name);
    }
    accept(Tok::Dedent);
}

StmtPtr Parser::parse_trait() {
    auto s = std::make_unique<TraitDecl>(cur().loc);
    advance();
    s->name = expect_ident("a trait name");
    skip_generics();
    expect(Tok::Colon, "`:` after the trait name");
    parse_method_block(s->methods, &s->required, "`fn` in a trait");
    return s;
}

StmtPtr Parser::parse_use(bool is_export) {
    auto s = std::make_unique<Use>(cur().loc);
    s->is_export = is_export;
    advance();
    s->path.push_back(expect_ident("a module path"));
    while (accept(Tok::Dot)) {
        if (accept(Tok::Star)) {
            s->star = true;
            break;
        }
        if (accept(Tok::LBrace)) {
            while (!at(Tok::RBrace)) {
                s->name_locs.push_back(cur().loc);
                s->names.push_back(expect_ident("a name to import"));
                std::string alias;
                if (accept(Tok::KwAs)) alias = expect_ident("an alias");
                s->aliases.push_back(alias);
                if (!accept(Tok::Comma)) break;
            }
            expect(Tok::RBrace, "`,` or `}` in the import list");
            break;
        }
        s->path.push_back(expect_ident("a module name"));
    }
    if (!s->star && s->names.empty() && accept(Tok::KwAs)) s->alias = expect_ident("a name after `as`");
    end_statement();
    return s;
}

StmtPtr Parser::parse_export() {
    SourceLoc loc = cur().loc;
    advance();
    if (at(Tok::KwUse)) return parse_use(true);
    if (at(Tok::KwFn) || at(Tok::KwClass) || at(Tok::KwStruct) || at(Tok::KwEnum) || at(Tok::KwTrait) ||
        at(Tok::KwExtern) || at(Tok::KwVal) || at(Tok::KwVar)) {
        // `export fn f...`: the declaration, plus an Export of its name.
        // The resolver reads the name back from the declaration.
        auto e = std::make_unique<Export>(loc);
        StmtPtr decl = parse_statement();
        std::string name;
        switch (decl->kind) {
        case StmtKind::Fn: name = static_cast<FnDecl&>(*decl).proto->name; break;
        case StmtKind::Class: name = static_cast<ClassDecl&>(*decl).name; break;
        case StmtKind::Enum: name = static_cast<EnumDecl&>(*decl).name; break;
        case StmtKind::Trait: name = static_cast<TraitDecl&>(*decl).name; break;
        case StmtKind::Extern: name = static_cast<ExternDecl&>(*decl).name; break;
        case StmtKind::Let: {
            auto& let = static_cast<Let&>(*decl);
            if (let.target->kind != PatKind::Bind) fail_at(loc, "expected a single name after `export val`");
            name = let.target->name;
            break;
        }
        default: break;
        }
        e->names.push_back(name);
        e->locs.push_back(loc);
        pending_exports_.push_back(std::move(e));
        return decl;
    }
    auto e = std::make_unique<Export>(loc);
    do {
        e->locs.push_back(cur().loc);
        e->names.push_back(expect_ident("a name to export"));
    } while (accept(Tok::Comma));
    end_statement();
    return e;
}

// `trait X:` and `type X = Y`: accepted and ignored (no static types here).
StmtPtr Parser::skip_block_statement(SourceLoc loc) {
    while (!at(Tok::Newline) && !at(Tok::Eof)) advance();
    accept(Tok::Newline);
    if (at(Tok::Indent)) {
        int depth = 0;
        do {
            if (at(Tok::Indent)) ++depth;
            if (at(Tok::Dedent)) --depth;
            advance();
        } while (depth > 0 && !at(Tok::Eof));
    }
    return std::make_unique<Stmt>(StmtKind::Ignored, loc);
}

// `describe "name":` + block  ==>  describe("name", \: block)
// `before_each:` + block      ==>  before_each(\: block)
StmtPtr Parser::parse_block_call() {
    SourceLoc loc = cur().loc;
    std::string fn_name(advance().text);
    auto call = std::make_unique<Call>(loc, std::make_unique<Name>(loc, fn_name));
    std::string label = fn_name;
    if (at(Tok::Str) || at(Tok::RawStr)) {
        const Token& t = advance();
        label += " " + std::string(t.text);
        call->args.push_back(parse_string(t));
    }
    SourceLoc body_loc = cur().loc;
    expect(Tok::Colon, "`:`");
    Block body = parse_branch_body();
    call->args.push_back(std::make_unique<Lambda>(body_loc, make_block_lambda(body_loc, std::move(body), label)));
    return std::make_unique<ExprStmt>(loc, std::move(call));
}

// ============================================================ expressions

ExprPtr Parser::parse_expr() {
    if (at(Tok::Backslash)) return parse_lambda();
    return parse_operators(0);
}

ExprPtr Parser::parse_lambda() {
    SourceLoc loc = cur().loc;
    NestingGuard nest(nesting_);
    nest.level(loc, "lambdas");
    advance();
    auto proto = std::make_unique<FnProto>();
    proto->name = "<lambda>";
    proto->loc = loc;
    proto->is_lambda = true;
    if (accept(Tok::LParen)) {
        while (!at(Tok::RParen)) {
            Param p;
            p.loc = cur().loc;
            p.name = expect_ident("a parameter name");
            if (accept(Tok::Colon)) {
                p.type = parse_type();
                p.to_float = is_float_type(p.type);
            }
            proto->params.push_back(std::move(p));
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RParen, "`)` after the lambda parameters");
    } else {
        while (at(Tok::Ident)) {
            Param p;
            p.loc = cur().loc;
            p.name = std::string(advance().text);
            proto->params.push_back(std::move(p));
            if (!accept(Tok::Comma)) break;
        }
    }
    expect(Tok::Colon, "`:` before the lambda body");
    SourceLoc body_loc = cur().loc;
    proto->body.stmts.push_back(std::make_unique<ExprStmt>(body_loc, parse_expr()));
    return std::make_unique<Lambda>(loc, std::move(proto));
}

namespace {

// Operator precedence as one table, as Lua's `subexpr` reads its
// `priority[]`: an infix operator continues an expression being parsed under
// `limit` when its `left` priority is above the limit, and its right operand
// is parsed under `right`. Equal priorities fold to the left; `right` below
// `left` makes an operator right-associative (`**`). From loosest to tightest:
// or, and, (prefix not: 3), comparisons and `in`, `??`, ranges, + -, * / % @,
// `as`, (prefix - +: 10), `**`.
enum class InfixKind : uint8_t { Logical, Binary, Range, Cast };
struct InfixRule {
    Tok tok;
    uint8_t left, right;
    InfixKind kind;
    BinOp op = BinOp::Add; // for Binary
    bool flag = false;     // Logical: is `and`; Range: is inclusive `..=`
};
constexpr InfixRule kInfix[] = {
    {Tok::KwOr, 1, 1, InfixKind::Logical, BinOp::Add, false},
    {Tok::KwAnd, 2, 2, InfixKind::Logical, BinOp::Add, true},
    {Tok::EqEq, 4, 4, InfixKind::Binary, BinOp::Eq},
    {Tok::NotEq, 4, 4, InfixKind::Binary, BinOp::Ne},
    {Tok::Lt, 4, 4, InfixKind::Binary, BinOp::Lt},
    {Tok::Le, 4, 4, InfixKind::Binary, BinOp::Le},
    {Tok::Gt, 4, 4, InfixKind::Binary, BinOp::Gt},
    {Tok::Ge, 4, 4, InfixKind::Binary, BinOp::Ge},
    {Tok::KwIn, 4, 4, InfixKind::Binary, BinOp::In},
    {Tok::KwNot, 4, 4, InfixKind::Binary, BinOp::NotIn}, // two tokens: `not in`
    {Tok::QuestionQuestion, 5, 5, InfixKind::Binary, BinOp::Coalesce},
    {Tok::DotDot, 6, 6, InfixKind::Range, BinOp::Add, false},
    {Tok::DotDotEq, 6, 6, InfixKind::Range, BinOp::Add, true},
    {Tok::Plus, 7, 7, InfixKind::Binary, BinOp::Add},
    {Tok::Minus, 7, 7, InfixKind::Binary, BinOp::Sub},
    {Tok::Star, 8, 8, InfixKind::Binary, BinOp::Mul},
    {Tok::Slash, 8, 8, InfixKind::Binary, BinOp::Div},
    {Tok::Percent, 8, 8, InfixKind::Binary, BinOp::Mod},
    {Tok::At, 8, 8, InfixKind::Binary, BinOp::MatMul},
    {Tok::KwAs, 9, 9, InfixKind::Cast},                    // right operand: a type
    {Tok::StarStar, 12, 9, InfixKind::Binary, BinOp::Pow}, // right 9: `2 ** -1`, `a ** b ** c`
};
constexpr int kNotPriority = 3;   // `not a == b` is `not (a == b)`; `not a and b` is `(not a) and b`
constexpr int kSignPriority = 10; // `-a * b` is `(-a) * b`; `-a ** 2` is `-(a ** 2)`

} // namespace

ExprPtr Parser::parse_operators(int limit) {
    NestingGuard nest(nesting_);
    ExprPtr e = parse_prefixed(limit);
    while (true) {
        const InfixRule* rule = nullptr;
        for (const InfixRule& r : kInfix)
            if (at(r.tok) && (r.tok != Tok::KwNot || peek().kind == Tok::KwIn)) rule = &r;
        if (!rule || rule->left <= limit) return e;
        // Each operator is one level above the chain so far: the chain is a tree as deep as it is long.
        nest.level(cur().loc, "operators", "each operator of a chain like `a + b + c` nests one level");
        SourceLoc loc = advance().loc;
        if (rule->tok == Tok::KwNot) advance(); // the `in` of `not in`
        switch (rule->kind) {
        case InfixKind::Logical:
            e = std::make_unique<Logical>(loc, rule->flag, std::move(e), parse_operators(rule->right));
            break;
        case InfixKind::Binary:
            e = std::make_unique<Binary>(loc, rule->op, std::move(e), parse_operators(rule->right));
            break;
        case InfixKind::Cast: e = std::make_unique<Cast>(loc, std::move(e), parse_type()); break;
        case InfixKind::Range:
            e = std::make_unique<Range>(loc, std::move(e), parse_operators(rule->right), rule->flag);
            // Ranges do not chain: `a..b..c` means nothing.
            if (at(Tok::DotDot) || at(Tok::DotDotEq)) fail_at(cur().loc, "a range cannot start another range");
            break;
        }
    }
}

ExprPtr Parser::parse_prefixed(int limit) {
    NestingGuard nest(nesting_);
    if (at(Tok::KwNot) && kNotPriority >= limit) {
        nest.level(cur().loc, "prefix operators");
        SourceLoc loc = advance().loc;
        return std::make_unique<Unary>(loc, UnaryOp::Not, parse_operators(kNotPriority));
    }
    if ((at(Tok::Minus) || at(Tok::Plus)) && kSignPriority >= limit) {
        bool neg = at(Tok::Minus);
        nest.level(cur().loc, "prefix operators");
        SourceLoc loc = advance().loc;
        ExprPtr operand = parse_operators(kSignPriority);
        // Fold `-3` and `-2.5` into literals (also makes i64::MIN writable).
        if (neg && operand->kind == ExprKind::Int) {
            auto& lit = static_cast<Literal&>(*operand);
            lit.value = Value::integer(static_cast<int64_t>(0ull - static_cast<uint64_t>(lit.value.as_int())));
            lit.loc = loc;
            return operand;
        }
        if (neg && operand->kind == ExprKind::Float) {
            auto& lit = static_cast<Literal&>(*operand);
            lit.value = Value::number(-lit.value.as_float());
            lit.loc = loc;
            return operand;
        }
        return std::make_unique<Unary>(loc, neg ? UnaryOp::Neg : UnaryOp::Pos, std::move(operand));
    }
    return parse_postfix();
}

// `*xs` spreads a list into positional arguments and `**d` a dict (text keys) into named
// ones (the real Simple's Spread and DictSpread); they are kept as arguments named "*"
// and "**", expanded when the call runs (Interpreter::eval_spread_args).
bool Parser::parse_args(std::vector<ExprPtr>& args, std::vector<std::string>& names) {
    // The `(` has been consumed.
    bool any_named = false, spreads = false;
    std::vector<std::string> tmp_names;
    while (!at(Tok::RParen)) {
        std::string name;
        if (at(Tok::Star) || at(Tok::StarStar)) {
            name = at(Tok::Star) ? "*" : "**";
            if (name == "*" && any_named) fail_at(cur().loc, "a positional argument cannot follow a named argument");
            advance();
            spreads = true;
            any_named |= name == "**";
        } else if ((at(Tok::Ident) || at(Tok::KwIn)) && peek().kind == Tok::Colon) {
            name = std::string(advance().text);
            advance();
            any_named = true;
        } else if (any_named) {
            fail_at(cur().loc, "a positional argument cannot follow a named argument");
        }
        tmp_names.push_back(name);
        args.push_back(parse_expr());
        if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "`,` or `)` in the argument list");
    if (any_named || spreads) names = std::move(tmp_names);
    return spreads;
}

ExprPtr Parser::parse_index_item() {
    SourceLoc loc = cur().loc;
    ExprPtr start;
    if (!at(Tok::Colon)) {
        start = parse_expr();
        if (!at(Tok::Colon)) return start;
    }
    auto slice = std::make_unique<Slice>(loc);
    slice->start = std::move(start);
    advance(); // first colon
    auto ends_part = [&] { return at(Tok::Colon) || at(Tok::Comma) || at(Tok::RBracket); };
    if (!ends_part()) slice->stop = parse_expr();
    if (accept(Tok::Colon) && !ends_part()) slice->step = parse_expr();
    return slice;
}

ExprPtr Parser::parse_postfix() {
    NestingGuard nest(nesting_);
    ExprPtr e = parse_primary();
    while (true) {
        // A call, field, index or `?` sits above the chain before it (`f()()()` is as deep as it is long).
        if (at(Tok::LParen) || at(Tok::Dot) || at(Tok::LBracket) || at(Tok::Question))
            nest.level(cur().loc, "calls, fields and indexes", "each link of a chain like `a.f()[0]` nests one level");
        if (at(Tok::LParen)) {
            advance();
            auto call = std::make_unique<Call>(e->loc, std::move(e));
            call->spreads = parse_args(call->args, call->arg_names);
            e = std::move(call);
        } else if (at(Tok::Dot)) {
            advance();
            SourceLoc loc = cur().loc;
            std::string name;
            if (at(Tok::Ident) || at(Tok::Int) ||
                (static_cast<int>(cur().kind) >= static_cast<int>(Tok::KwFn) &&
                 static_cast<int>(cur().kind) <= static_cast<int>(Tok::KwAs)))
                name = std::string(advance().text); // keywords are fine as member names (`.not`)
            else
                fail_expected("a field or method name after `.`");
            if (at(Tok::LParen)) {
                advance();
                auto mc = std::make_unique<MethodCall>(loc, std::move(e), name);
                mc->spreads = parse_args(mc->args, mc->arg_names);
                e = std::move(mc);
            } else {
                e = std::make_unique<Member>(loc, std::move(e), name);
            }
        } else if (at(Tok::LBracket)) {
            SourceLoc loc = advance().loc;
            auto idx = std::make_unique<Index>(loc, std::move(e));
            do {
                if (at(Tok::RBracket)) break;
                idx->indices.push_back(parse_index_item());
            } while (accept(Tok::Comma));
            expect(Tok::RBracket, "`]` after the index");
            if (idx->indices.empty()) fail_at(loc, "expected an index inside `[]`");
            e = std::move(idx);
        } else if (at(Tok::Question)) {
            SourceLoc loc = advance().loc;
            e = std::make_unique<Try>(loc, std::move(e));
        } else {
            return e;
        }
    }
}

ExprPtr Parser::parse_string(const Token& t) {
    if (t.kind == Tok::RawStr || t.parts.empty())
        return std::make_unique<Literal>(ExprKind::Str, t.loc,
                                         make_str(t.kind == Tok::RawStr ? t.str_value : t.str_value));
    auto interp = std::make_unique<Interp>(t.loc);
    for (const StrPart& part : t.parts) {
        if (!part.is_expr) {
            interp->pieces.push_back(part.text);
            continue;
        }
        Lexer lexer(file_, part.begin, part.end, part.line, part.col);
        NestingGuard nest(nesting_);
        nest.level(SourceLoc{&file_, part.line, part.col}, "interpolations");
        Parser sub(file_, lexer.tokenize(), nesting_.depth);
        interp->exprs.push_back(sub.parse_fragment());
        if (sub.nesting_peak() > nesting_.peak) nesting_.peak = sub.nesting_peak();
        std::unique_ptr<const FormatSpec> spec;
        if (part.has_spec && !part.spec.empty()) { // `{x:}` is `{x}`, as in Python
            try {
                spec = std::make_unique<const FormatSpec>(parse_format_spec(part.spec));
            } catch (const FormatError& e) {
                throw_error(ErrorKind::Syntax, SourceLoc{&file_, part.spec_line, part.spec_col}, e.what());
            }
        }
        interp->specs.push_back(std::move(spec));
    }
    return interp;
}

ExprPtr Parser::parse_primary() {
    const Token& t = cur();
    SourceLoc loc = t.loc;
    switch (t.kind) {
    case Tok::Int: advance(); return std::make_unique<Literal>(ExprKind::Int, loc, Value::integer(t.int_value));
    case Tok::Float: advance(); return std::make_unique<Literal>(ExprKind::Float, loc, Value::number(t.float_value));
    case Tok::Str:
    case Tok::RawStr: advance(); return parse_string(t);
    case Tok::KwTrue: advance(); return std::make_unique<Literal>(ExprKind::Bool, loc, Value::boolean(true));
    case Tok::KwFalse: advance(); return std::make_unique<Literal>(ExprKind::Bool, loc, Value::boolean(false));
    case Tok::KwNil: advance(); return std::make_unique<Literal>(ExprKind::Nil, loc, Value());
    case Tok::Ident:
        advance();
        if (t.text == "None") return std::make_unique<Literal>(ExprKind::Nil, loc, Value());
        return std::make_unique<Name>(loc, std::string(t.text));
    case Tok::LParen: return parse_paren();
    case Tok::LBracket: return parse_bracket_literal();
    case Tok::LBrace: return parse_brace_literal();
    case Tok::KwIf: return parse_if_expr();
    case Tok::KwMatch: return parse_match_expr();
    case Tok::Backslash: return parse_lambda();
    default: fail_expected("an expression");
    }
}

ExprPtr Parser::parse_paren() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "parentheses");
    SourceLoc loc = advance().loc;
    if (accept(Tok::RParen)) return std::make_unique<TupleLit>(loc);
    ExprPtr first = parse_expr();
    if (accept(Tok::RParen)) return first;
    auto tuple = std::make_unique<TupleLit>(loc);
    tuple->elems.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (at(Tok::RParen)) break;
        tuple->elems.push_back(parse_expr());
    }
    expect(Tok::RParen, "`,` or `)` in the tuple");
    return tuple;
}

void Parser::parse_comp_clauses(std::vector<CompClause>& clauses, Tok closing) {
    while (!at(closing)) {
        CompClause c;
        if (accept(Tok::KwFor)) {
            c.pattern = parse_binding_target();
            if (at(Tok::Comma)) {
                auto tuple = std::make_unique<Pattern>(PatKind::Tuple, c.pattern->loc);
                tuple->subs.push_back(std::move(c.pattern));
                while (accept(Tok::Comma)) tuple->subs.push_back(parse_binding_target());
                c.pattern = std::move(tuple);
            }
            expect(Tok::KwIn, "`in`");
            c.iter = parse_operators(0);
        } else if (accept(Tok::KwIf)) {
            c.cond = parse_operators(0);
        } else {
            fail_expected("`for`, `if` or " + tok_name(closing) + " in the comprehension");
        }
        clauses.push_back(std::move(c));
    }
}

ExprPtr Parser::parse_bracket_literal() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "brackets");
    SourceLoc loc = advance().loc;
    auto arr = std::make_unique<ArrayLit>(loc);
    if (accept(Tok::RBracket)) return arr;
    ExprPtr first = parse_expr();
    if (at(Tok::KwFor)) {
        auto comp = std::make_unique<Comprehension>(loc);
        comp->elem = std::move(first);
        parse_comp_clauses(comp->clauses, Tok::RBracket);
        expect(Tok::RBracket, "`]`");
        return comp;
    }
    arr->elems.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (at(Tok::RBracket)) break;
        arr->elems.push_back(parse_expr());
    }
    expect(Tok::RBracket, "`,` or `]` in the array");
    return arr;
}

ExprPtr Parser::parse_brace_literal() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "braces");
    SourceLoc loc = advance().loc;
    auto dict = std::make_unique<DictLit>(loc);
    if (accept(Tok::RBrace)) return dict;
    ExprPtr key = parse_expr();
    expect(Tok::Colon, "`:` after the dictionary key");
    ExprPtr value = parse_expr();
    if (at(Tok::KwFor)) {
        auto comp = std::make_unique<Comprehension>(loc);
        comp->elem = std::move(key);
        comp->value = std::move(value);
        parse_comp_clauses(comp->clauses, Tok::RBrace);
        expect(Tok::RBrace, "`}`");
        return comp;
    }
    dict->keys.push_back(std::move(key));
    dict->values.push_back(std::move(value));
    while (accept(Tok::Comma)) {
        if (at(Tok::RBrace)) break;
        dict->keys.push_back(parse_expr());
        expect(Tok::Colon, "`:` after the dictionary key");
        dict->values.push_back(parse_expr());
    }
    expect(Tok::RBrace, "`,` or `}` in the dictionary");
    return dict;
}

// `if c: a else: b` on one line, or with indented blocks; the value is the
// last expression of the branch taken (nil when no branch is taken).
ExprPtr Parser::parse_if_expr() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "`if` expressions");
    auto e = std::make_unique<IfExpr>(advance().loc);
    auto branch = [&]() {
        expect(Tok::Colon, "`:`");
        if (at(Tok::Newline)) return parse_indented_block();
        Block b;
        SourceLoc loc = cur().loc;
        b.stmts.push_back(std::make_unique<ExprStmt>(loc, parse_expr()));
        return b;
    };
    e->conds.push_back(parse_expr());
    e->blocks.push_back(branch());
    while (at(Tok::KwElif)) {
        advance();
        e->conds.push_back(parse_expr());
        e->blocks.push_back(branch());
    }
    if (accept(Tok::KwElse)) e->else_block = std::make_unique<Block>(branch());
    return e;
}

ExprPtr Parser::parse_match_expr() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "`match` expressions");
    auto e = std::make_unique<MatchExpr>(advance().loc);
    e->subject = parse_expr();
    expect(Tok::Colon, "`:` after the match subject");
    parse_match_arms(e->arms);
    return e;
}

// ============================================================ patterns

PatternPtr Parser::parse_pattern() {
    NestingGuard nest(nesting_);
    nest.level(cur().loc, "patterns");
    PatternPtr p = parse_pattern_primary();
    if (!at(Tok::Pipe)) return p;
    auto alt = std::make_unique<Pattern>(PatKind::Or, p->loc);
    alt->subs.push_back(std::move(p));
    while (accept(Tok::Pipe)) alt->subs.push_back(parse_pattern_primary());
    return alt;
}

PatternPtr Parser::parse_pattern_primary() {
    const Token& t = cur();
    SourceLoc loc = t.loc;
    auto literal = [&](Value v) {
        auto p = std::make_unique<Pattern>(PatKind::Literal, loc);
        p->literal = std::move(v);
        return p;
    };
    switch (t.kind) {
    case Tok::Int: advance(); return literal(Value::integer(t.int_value));
    case Tok::Float: advance(); return literal(Value::number(t.float_value));
    case Tok::Str:
        if (!t.parts.empty()) fail_at(loc, "an interpolated text cannot be a pattern");
        advance();
        return literal(make_str(t.str_value));
    case Tok::RawStr: advance(); return literal(make_str(t.str_value));
    case Tok::KwTrue: advance(); return literal(Value::boolean(true));
    case Tok::KwFalse: advance(); return literal(Value::boolean(false));
    case Tok::KwNil: advance(); return literal(Value());
    case Tok::Minus: {
        advance();
        const Token& n = cur();
        if (n.kind == Tok::Int) {
            advance();
            return literal(Value::integer(-n.int_value));
        }
        if (n.kind == Tok::Float) {
            advance();
            return literal(Value::number(-n.float_value));
        }
        fail_expected("a number after `-` in the pattern");
    }
    case Tok::LParen: {
        advance();
        auto p = std::make_unique<Pattern>(PatKind::Tuple, loc);
        while (!at(Tok::RParen)) {
            p->subs.push_back(parse_pattern());
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RParen, "`)` in the pattern");
        if (p->subs.size() == 1 && toks_[pos_ - 2].kind != Tok::Comma) return std::move(p->subs[0]);
        return p;
    }
    case Tok::LBracket: {
        advance();
        auto p = std::make_unique<Pattern>(PatKind::Array, loc);
        while (!at(Tok::RBracket)) {
            p->subs.push_back(parse_pattern());
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RBracket, "`]` in the pattern");
        return p;
    }
    case Tok::Ident: {
        std::string name(advance().text);
        if (name == "_") return std::make_unique<Pattern>(PatKind::Wildcard, loc);
        if (name == "None") return literal(Value());
        std::string qualifier;
        while (at(Tok::Dot)) {
            advance();
            qualifier = qualifier.empty() ? name : qualifier + "." + name;
            name = expect_ident("a variant name");
        }
        bool is_variant = !qualifier.empty() || at(Tok::LParen) || starts_upper(name);
        if (!is_variant) {
            auto p = std::make_unique<Pattern>(PatKind::Bind, loc);
            p->name = name;
            return p;
        }
        auto p = std::make_unique<Pattern>(PatKind::Variant, loc);
        p->qualifier = qualifier;
        p->variant = name;
        if (accept(Tok::LParen)) {
            p->has_args = true;
            while (!at(Tok::RParen)) {
                if (at(Tok::Ident) && peek().kind == Tok::Colon) {
                    advance();
                    advance();
                } // `field: pat`
                p->subs.push_back(parse_pattern());
                if (!accept(Tok::Comma)) break;
            }
            expect(Tok::RParen, "`)` after the variant's patterns");
        }
        return p;
    }
    default: fail_expected("a pattern");
    }
}

PatternPtr Parser::parse_binding_target() {
    SourceLoc loc = cur().loc;
    NestingGuard nest(nesting_);
    nest.level(loc, "patterns");
    if (accept(Tok::LParen)) {
        auto p = std::make_unique<Pattern>(PatKind::Tuple, loc);
        while (!at(Tok::RParen)) {
            p->subs.push_back(parse_binding_target());
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RParen, "`)` after the names");
        return p;
    }
    std::string name = expect_ident("a name");
    if (name == "_") return std::make_unique<Pattern>(PatKind::Wildcard, loc);
    auto p = std::make_unique<Pattern>(PatKind::Bind, loc);
    p->name = name;
    return p;
}

// ============================================================ types

TypeRef Parser::parse_type() { return TypeRef(parse_type_tokens(toks_, pos_)); }

std::string Parser::source_between(const Token& first, const Token& last) const {
    const char* begin = first.text.data();
    const char* end = last.text.data() + last.text.size();
    return std::string(begin, static_cast<size_t>(end - begin));
}

} // namespace

std::unique_ptr<Module> parse_module(const SourceFile& file) {
    Lexer lexer(file);
    Parser parser(file, lexer.tokenize());
    return parser.parse_file();
}

} // namespace spl
