// parse_patterns.cpp — match patterns, binding targets (val, for), and written types, which
// type_expr.h's grammar parses over the same tokens (the Parser class: parser_impl.h).
#include "syntax/parser_impl.h"

namespace spl {
namespace parsing {

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

TypeRef Parser::parse_type() {
    TypePtr t = parse_type_tokens(toks_, pos_);
    // A shape-type alias declared above (`type Images = Tensor<...>`), written bare or as `Images?`.
    const bool optional = t && t->kind == TypeExpr::Kind::Optional;
    const TypeExpr* named = optional ? t->args[0].get() : t.get();
    if (named && named->kind == TypeExpr::Kind::Named && !named->shape && named->args.empty() && !named->generic) {
        auto alias = shape_aliases_.find(named->name);
        if (alias != shape_aliases_.end()) {
            if (!optional || alias->second->kind == TypeExpr::Kind::Optional) return TypeRef(alias->second);
            auto wrapped = std::make_shared<TypeExpr>();
            wrapped->kind = TypeExpr::Kind::Optional;
            wrapped->args.push_back(alias->second);
            return TypeRef(wrapped);
        }
    }
    return TypeRef(std::move(t));
}

} // namespace parsing
} // namespace spl
