// parser_impl.h — the parser's class, shared by the three files that define it; private to
// syntax/ (the public entry is parser.h: parse_module).
//
//   parse_statements.cpp   the file, blocks, statements and declarations (fn, class, enum,
//                          impl, trait, extern, use, export), spec blocks
//   parse_expressions.cpp  expressions: operators by one precedence table, postfix chains,
//                          literals, interpolated text, comprehensions, lambdas
//   parse_patterns.cpp     match patterns, binding targets, and types (type_expr.h's grammar)
#pragma once

#include <cctype>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostics.h"
#include "base/scalar_types.h"
#include "base/source.h"
#include "syntax/ast.h"
#include "syntax/lexer.h"
#include "syntax/nesting.h"
#include "syntax/token_cursor.h"
#include "syntax/type_expr.h"

namespace spl {
namespace parsing {

using namespace ast;

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
    StmtPtr skip_block_statement(SourceLoc loc); // `trait X:`, and a type alias that is no shape type
    StmtPtr parse_type_alias(SourceLoc loc);     // `type Images = Tensor<f32, [B, 3, H, W]>`
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
    // Shape-type aliases declared so far in the file (`type NAME = Tensor<...>`): a later type
    // written as the bare NAME is the alias's type (shape types: host/README.md).
    std::unordered_map<std::string, TypePtr> shape_aliases_;
};

inline bool starts_upper(std::string_view s) { return !s.empty() && std::isupper(static_cast<unsigned char>(s[0])); }

// Declared f64/f32 (not `f64?`): an integer given for it becomes a float.
inline bool is_float_type(const TypeRef& t) {
    return t.tree && t.tree->kind == TypeExpr::Kind::Named && !t.tree->generic && find_float_type(t.tree->name);
}

} // namespace parsing
} // namespace spl
