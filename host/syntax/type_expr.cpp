// type_expr.cpp — the one type grammar (over tokens), the canonical printer,
// and parsing of type text that comes from outside (plugin signatures).
#include "syntax/type_expr.h"

#include "base/diagnostics.h"
#include "syntax/lexer.h"
#include "syntax/nesting.h"
#include "syntax/token_cursor.h"

namespace spl {

namespace {

// The one type grammar, over the parser's tokens (or a plugin signature's),
// stepping and reporting errors as the parser does (TokenCursor).
class TypeGrammar : private TokenCursor {
public:
    TypeGrammar(const std::vector<Token>& toks, size_t& pos) : TokenCursor(toks, pos) {}

    TypePtr type() {
        NestingGuard nest(nesting_); // `[[[...]]]` and `T???...` as deep as they are long
        nest.level(cur().loc, "types");
        auto t = std::make_shared<TypeExpr>();
        if (accept(Tok::LBracket)) {
            t->kind = TypeExpr::Kind::List;
            t->args.push_back(type());
            expect(Tok::RBracket, "`]` in the type");
        } else if (accept(Tok::LBrace)) {
            t->kind = TypeExpr::Kind::Dict;
            t->args.push_back(type());
            expect(Tok::Colon, "`:` in the dictionary type");
            t->args.push_back(type());
            expect(Tok::RBrace, "`}` in the type");
        } else if (accept(Tok::LParen)) {
            t->kind = TypeExpr::Kind::Tuple;
            list(t->args, Tok::RParen);
            expect(Tok::RParen, "`)` in the tuple type");
        } else if (accept(Tok::KwFn)) {
            t->kind = TypeExpr::Kind::Function;
            expect(Tok::LParen, "`(` in the function type");
            list(t->args, Tok::RParen);
            expect(Tok::RParen, "`)` in the function type");
            if (accept(Tok::Arrow)) t->result = type();
        } else {
            t->name = std::string(expect(Tok::Ident, "a type").text);
            while (at(Tok::Dot) && peek().kind == Tok::Ident) {
                advance();
                t->name += "." + std::string(advance().text);
            }
            if (accept(Tok::Lt)) {
                t->generic = true;
                list(t->args, Tok::Gt);
                expect(Tok::Gt, "`>` in the generic type");
            }
        }
        TypePtr out = std::move(t);
        while (at(Tok::Question)) {
            nest.level(advance().loc, "types");
            auto opt = std::make_shared<TypeExpr>();
            opt->kind = TypeExpr::Kind::Optional;
            opt->args.push_back(std::move(out));
            out = std::move(opt);
        }
        return out;
    }

    bool at_end() const { return at(Tok::Eof); }

private:
    // Comma-separated types up to (not including) `close`; a trailing comma is allowed.
    void list(std::vector<TypePtr>& out, Tok close) {
        while (!at(close)) {
            out.push_back(type());
            if (!accept(Tok::Comma)) break;
        }
    }

    NestingCount nesting_;
};

void join(std::string& out, const std::vector<TypePtr>& items) {
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + to_text(*items[i]);
}

} // namespace

TypeRef::TypeRef(TypePtr t) : tree(std::move(t)), text(tree ? to_text(*tree) : std::string()) {}

std::string to_text(const TypeExpr& t) {
    std::string out;
    switch (t.kind) {
    case TypeExpr::Kind::Named:
        out = t.name;
        if (t.generic) {
            out += "<";
            join(out, t.args);
            out += ">";
        }
        return out;
    case TypeExpr::Kind::Optional: return to_text(*t.args[0]) + "?";
    case TypeExpr::Kind::List: return "[" + to_text(*t.args[0]) + "]";
    case TypeExpr::Kind::Tuple:
        out = "(";
        join(out, t.args);
        return out + ")";
    case TypeExpr::Kind::Dict: return "{" + to_text(*t.args[0]) + ": " + to_text(*t.args[1]) + "}";
    case TypeExpr::Kind::Function:
        out = "fn(";
        join(out, t.args);
        out += ")";
        if (t.result) out += " -> " + to_text(*t.result);
        return out;
    }
    return out;
}

TypePtr parse_type_tokens(const std::vector<Token>& toks, size_t& pos) { return TypeGrammar(toks, pos).type(); }

TypePtr parse_type_text(std::string_view text) {
    SourceFile file("<type>", std::string(text));
    try {
        Lexer lexer(file);
        std::vector<Token> toks = lexer.tokenize();
        // Drop the layout tokens a whole-file lex adds.
        std::vector<Token> core;
        for (auto& t : toks)
            if (t.kind != Tok::Newline && t.kind != Tok::Indent && t.kind != Tok::Dedent) core.push_back(std::move(t));
        size_t pos = 0;
        TypeGrammar grammar(core, pos);
        TypePtr t = grammar.type();
        return grammar.at_end() ? t : nullptr;
    } catch (const ProgramError&) {
        return nullptr;
    }
}

std::string canonical_type(std::string_view text) {
    if (TypePtr t = parse_type_text(text)) return to_text(*t);
    size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
    return b == std::string_view::npos ? std::string() : std::string(text.substr(b, e - b + 1));
}

} // namespace spl
