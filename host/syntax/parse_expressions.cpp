// parse_expressions.cpp — expressions: operators from one precedence table, prefix and postfix forms,
// literals, interpolated text, comprehensions, lambdas (the Parser class: parser_impl.h).
#include "syntax/parser_impl.h"

namespace spl {
namespace parsing {

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
        // Python's `a // b` (and `//=`): two `/` side by side. The real Simple deprecated `//` as
        // floor division (it means parallel execution there); say what to write instead.
        if (rule->tok == Tok::Slash && (peek().kind == Tok::Slash || peek().kind == Tok::SlashEq) &&
            peek().loc.line == cur().loc.line && peek().loc.col == cur().loc.col + 1)
            fail_at(cur().loc, "`//` is not floor division in Simple: `/` on two integers already truncates toward "
                               "zero; for floor division write `a.fdiv(b)`");
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
    if (at(Tok::DotDot) && peek().kind == Tok::Dot) { // `x[..., 0]`: Python's Ellipsis
        advance();
        advance();
        return std::make_unique<Literal>(ExprKind::Ellipsis, loc, ellipsis_value());
    }
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

} // namespace parsing
} // namespace spl
