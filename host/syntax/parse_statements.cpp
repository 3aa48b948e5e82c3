// parse_statements.cpp — tokens to the syntax tree: the file, blocks, statements and declarations
// (the Parser class: parser_impl.h).
#include "syntax/parser.h"

#include "syntax/parser_impl.h"
#include "syntax/expr_text.h"

namespace spl {
namespace parsing {

namespace {

std::unique_ptr<FnProto> make_block_lambda(SourceLoc loc, Block body, std::string name) {
    auto proto = std::make_unique<FnProto>();
    proto->name = std::move(name);
    proto->loc = loc;
    proto->is_lambda = true;
    proto->body = std::move(body);
    return proto;
}

// Whether a `=` follows on this line, outside brackets: `a, b = f()` is an unpacking then.
bool assignment_follows(const std::vector<Token>& toks, size_t pos) {
    int depth = 0;
    for (size_t k = pos; k < toks.size(); ++k) {
        Tok t = toks[k].kind;
        if (t == Tok::LParen || t == Tok::LBracket || t == Tok::LBrace) ++depth;
        if (t == Tok::RParen || t == Tok::RBracket || t == Tok::RBrace) --depth;
        if (t == Tok::Newline || t == Tok::Eof || depth < 0) return false;
        if (t == Tok::Assign && depth == 0) return true;
    }
    return false;
}

// Simple unpacks only into new names, `val (a, b) = ...`; the message says what to write
// (assigning existing variables, fields or items by unpacking is not supported: host/README.md).
// `targets`: the unpacked expressions; the suggestion reuses them when they are all plain names.
std::string unpacking_message(const std::string& written, const std::vector<const Expr*>& targets) {
    std::string names;
    for (const Expr* t : targets) names += (names.empty() ? "" : ", ") + expr_text(*t);
    for (const Expr* t : targets)
        if (t->kind != ExprKind::Name) names = "a, b";
    return "`" + written + " = ...` does not unpack in Simple: for new names write `val (" + names +
           ") = ...` (or `var (...)`); to update existing variables, unpack into new names, then assign each";
}

} // namespace

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
    // Python's `{x if c else y}`, ported as written: say how Simple writes it.
    if (at(Tok::KwIf))
        throw_error(ErrorKind::Syntax, cur().loc,
                    "expected `}` after the interpolated expression, found `if`: Simple's inline if is "
                    "`{if c: x else: y}`, not Python's `{x if c else y}`");
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
            return parse_type_alias(loc);
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
    if (at(Tok::Comma) && assignment_follows(toks_, pos_)) {
        // Python's `a, b = f()`: said at the `,`, with the names as written.
        SourceLoc comma = cur().loc;
        std::vector<ExprPtr> rest;
        while (accept(Tok::Comma)) rest.push_back(parse_expr());
        std::vector<const Expr*> targets{e.get()};
        std::string written = expr_text(*e);
        for (const ExprPtr& t : rest) {
            targets.push_back(t.get());
            written += ", " + expr_text(*t);
        }
        fail_at(comma, unpacking_message(written, targets));
    }
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
    if (e->kind == ExprKind::Tuple && op == AssignOp::Set) { // Python's `(a, b) = f()`
        std::vector<const Expr*> targets;
        for (const ExprPtr& item : static_cast<const TupleLit&>(*e).elems) targets.push_back(item.get());
        fail_at(op_loc, unpacking_message(expr_text(*e), targets));
    }
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
        Param f; // a field: a parameter of `C(...)`
        f.loc = cur().loc;
        if (at(Tok::KwVal) || at(Tok::KwVar)) advance();
        f.name = expect_ident("a field or method");
        if (accept(Tok::Colon)) {
            f.type = parse_type();
            f.to_float = is_float_type(f.type);
        }
        if (accept(Tok::Assign)) {
            const Token& first = cur();
            f.default_value = parse_expr();
            f.default_text = source_between(first, toks_[pos_ - 1]);
        }
        for (const auto& g : s->init.params)
            if (g.name == f.name) fail_at(f.loc, "duplicate field `" + f.name + "`");
        s->init.params.push_back(std::move(f));
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

// `type NAME = TYPE`: a shape type (`Tensor<f32, [B, 3, H, W]>`, `Tensor<[B, 10]>?`) is kept for
// the types written after it in the file; any other alias is accepted and ignored, as before
// (no static types here).
StmtPtr Parser::parse_type_alias(SourceLoc loc) {
    const size_t start = pos_;
    advance(); // `type`
    const std::string name(cur().text);
    advance();
    advance(); // `=`
    try {
        TypePtr t = parse_type_tokens(toks_, pos_);
        const TypeExpr* inner = t && t->kind == TypeExpr::Kind::Optional ? t->args[0].get() : t.get();
        if (inner && inner->kind == TypeExpr::Kind::Named && inner->shape && (at(Tok::Newline) || at(Tok::Eof))) {
            shape_aliases_[name] = std::move(t);
            accept(Tok::Newline);
            return std::make_unique<Stmt>(StmtKind::Ignored, loc);
        }
    } catch (const ProgramError&) {
        // not a type this grammar reads: ignored as before
    }
    pos_ = start;
    return skip_block_statement(loc);
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

std::string Parser::source_between(const Token& first, const Token& last) const {
    const char* begin = first.text.data();
    const char* end = last.text.data() + last.text.size();
    return std::string(begin, static_cast<size_t>(end - begin));
}

} // namespace parsing

std::unique_ptr<ast::Module> parse_module(const SourceFile& file) {
    Lexer lexer(file);
    parsing::Parser parser(file, lexer.tokenize());
    return parser.parse_file();
}

} // namespace spl
