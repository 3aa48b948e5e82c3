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
                if (names_tensor(t->name) && (at(Tok::LBracket) || (at(Tok::Ident) && peek().kind == Tok::Comma)))
                    t->shape = shape();
                else
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
    static bool names_tensor(const std::string& name) {
        return name == "Tensor" || (name.size() > 7 && name.compare(name.size() - 7, 7, ".Tensor") == 0);
    }

    // `[dims]` or `dtype, [dims]` inside a shape type's `<...>`.
    std::shared_ptr<const ShapeExpr> shape() {
        auto s = std::make_shared<ShapeExpr>();
        if (at(Tok::Ident)) {
            s->dtype = std::string(advance().text);
            expect(Tok::Comma, "`,` after the shape type's dtype");
        }
        expect(Tok::LBracket, "`[` to start the shape's dimensions");
        bool rest = false;
        while (!at(Tok::RBracket)) {
            if (at(Tok::Star) && peek().kind == Tok::Ident) {
                SourceLoc where = advance().loc;
                if (rest) throw_error(ErrorKind::Syntax, where, "a shape type has at most one `*name` dimension");
                rest = true;
                auto d = std::make_shared<DimExpr>();
                d->kind = DimExpr::Kind::Rest;
                d->name = std::string(advance().text);
                s->dims.push_back(std::move(d));
            } else {
                s->dims.push_back(dim_sum());
            }
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RBracket, "`]` to end the shape's dimensions");
        return s;
    }

    // `+ -` (level 0) over `* /` (level 1) over atoms, each left-associative.
    DimPtr dim_sum(int level = 0) {
        static constexpr Tok kOps[2][2] = {{Tok::Plus, Tok::Minus}, {Tok::Star, Tok::Slash}};
        static constexpr char kChars[2][2] = {{'+', '-'}, {'*', '/'}};
        auto operand = [&] { return level == 0 ? dim_sum(1) : dim_atom(); };
        DimPtr d = operand();
        while (at(kOps[level][0]) || at(kOps[level][1])) {
            auto b = std::make_shared<DimExpr>();
            b->kind = DimExpr::Kind::Binary;
            b->op = kChars[level][advance().kind == kOps[level][0] ? 0 : 1];
            b->lhs = std::move(d);
            b->rhs = operand();
            d = std::move(b);
        }
        return d;
    }

    DimPtr dim_atom() {
        NestingGuard nest(nesting_);
        nest.level(cur().loc, "types");
        if (accept(Tok::LParen)) {
            DimPtr d = dim_sum();
            expect(Tok::RParen, "`)` in the dimension");
            return d;
        }
        auto d = std::make_shared<DimExpr>();
        if (at(Tok::Int)) {
            const Token& t = advance();
            std::string digits;
            for (char c : t.text)
                if (c != '_') digits += c;
            try {
                d->size = std::stoll(digits);
            } catch (const std::exception&) {
                throw_error(ErrorKind::Syntax, t.loc,
                            "a dimension size must be a decimal integer, found `" + std::string(t.text) + "`");
            }
            return d;
        }
        d->name = std::string(expect(Tok::Ident, "a dimension (a size, a name, `_` or `*name`)").text);
        d->kind = d->name == "_" ? DimExpr::Kind::Any : DimExpr::Kind::Symbol;
        return d;
    }

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

std::string to_text(const DimExpr& d) {
    switch (d.kind) {
    case DimExpr::Kind::Size: return std::to_string(d.size);
    case DimExpr::Kind::Symbol: return d.name;
    case DimExpr::Kind::Any: return "_";
    case DimExpr::Kind::Rest: return "*" + d.name;
    case DimExpr::Kind::Binary: {
        // Parenthesized where the written precedence needs it: `(A + B) * C`, `A - (B - C)`.
        auto precedence = [](const DimExpr& x) {
            return x.kind != DimExpr::Kind::Binary ? 3 : (x.op == '*' || x.op == '/') ? 2 : 1;
        };
        auto side = [&](const DimExpr& x, bool right) {
            bool needs = precedence(x) < precedence(d) ||
                         (right && precedence(x) == precedence(d) && (d.op == '-' || d.op == '/'));
            return needs ? "(" + to_text(x) + ")" : to_text(x);
        };
        return side(*d.lhs, false) + " " + d.op + " " + side(*d.rhs, true);
    }
    }
    return "";
}

std::string to_text(const ShapeExpr& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.dims.size(); ++i) out += (i ? ", " : "") + to_text(*s.dims[i]);
    return out + "]";
}

std::string to_text(const TypeExpr& t) {
    std::string out;
    switch (t.kind) {
    case TypeExpr::Kind::Named:
        out = t.name;
        if (t.shape) return out + "<" + (t.shape->dtype.empty() ? "" : t.shape->dtype + ", ") + to_text(*t.shape) + ">";
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
