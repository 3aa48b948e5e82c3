// lexer.h — text to tokens, with Python-style layout.
//
// The layout rules: a line that is more indented than the previous one opens
// a block (INDENT), a less indented one closes blocks (DEDENT, one per level);
// every logical line ends with NEWLINE. Newlines inside (), [] and {} are
// ignored, as are blank and comment-only lines; a backslash at the end of a
// line continues it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/source.h"

namespace spl {

enum class Tok : uint8_t {
    Eof,
    Newline,
    Indent,
    Dedent,
    Ident,
    Int,
    Float,
    Str,
    RawStr,
    // keywords
    KwFn,
    KwVal,
    KwVar,
    KwLet,
    KwReturn,
    KwIf,
    KwElif,
    KwElse,
    KwWhile,
    KwFor,
    KwIn,
    KwBreak,
    KwContinue,
    KwPass,
    KwClass,
    KwStruct,
    KwEnum,
    KwImpl,
    KwTrait,
    KwMatch,
    KwCase,
    KwUse,
    KwExport,
    KwExtern,
    KwTrue,
    KwFalse,
    KwNil,
    KwAnd,
    KwOr,
    KwNot,
    KwWith,
    KwAs,
    // punctuation and operators
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Dot,
    DotDot,
    DotDotEq,
    Arrow,
    FatArrow,
    Question,
    QuestionQuestion,
    Backslash,
    Pipe,
    At,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    StarStar,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    PercentEq,
};

// How a token kind is named in "expected X, found Y" messages.
std::string tok_name(Tok t);

// One piece of an interpolated string: literal text, or the source range of
// an expression written between braces, with its format spec if any
// (`{loss:.4f}`: the text after the first `:` outside brackets and strings).
struct StrPart {
    bool is_expr = false;
    std::string text;   // decoded literal text (is_expr == false)
    uint32_t begin = 0; // byte range of the expression in the file
    uint32_t end = 0;
    uint32_t line = 0, col = 0; // position of `begin`
    bool has_spec = false;
    std::string spec;                     // the format spec, without its colon
    uint32_t spec_line = 0, spec_col = 0; // position of the spec's first character
};

struct Token {
    Tok kind = Tok::Eof;
    SourceLoc loc;
    std::string_view text; // the token's source text
    int64_t int_value = 0;
    double float_value = 0;
    std::string str_value;      // RawStr, or Str without interpolation
    std::vector<StrPart> parts; // Str: literal and expression pieces
};

// How a token is named after "found" in those messages: its kind, with the text of a name, number or string.
std::string describe_token(const Token& t);

class Lexer {
public:
    // A whole file, with layout tokens.
    explicit Lexer(const SourceFile& file);
    // A fragment (an interpolated expression): no layout tokens.
    Lexer(const SourceFile& file, uint32_t begin, uint32_t end, uint32_t line, uint32_t col);

    std::vector<Token> tokenize(); // throws ProgramError (ErrorKind::Syntax)

private:
    char peek(size_t ahead = 0) const;
    char advance();
    SourceLoc here() const { return SourceLoc{&file_, line_, col_}; }
    [[noreturn]] void fail(SourceLoc loc, const std::string& message) const;

    void layout(std::vector<Token>& out); // indentation at the start of a line
    void emit(std::vector<Token>& out, Tok kind, SourceLoc loc, size_t begin);
    void lex_number(std::vector<Token>& out);
    void lex_string(std::vector<Token>& out);
    void lex_triple_string(std::vector<Token>& out);
    void lex_raw_string(std::vector<Token>& out);
    uint32_t skip_interpolation();                           // returns the offset of the closing brace
    uint32_t spec_colon(uint32_t begin, uint32_t end) const; // the format spec's `:`, or `end`
    bool lex_operator(std::vector<Token>& out);

    const SourceFile& file_;
    const std::string& src_;
    size_t pos_;
    size_t end_;
    uint32_t line_, col_;
    bool layout_enabled_;
    bool at_line_start_ = true;
    int bracket_depth_ = 0;
    std::vector<uint32_t> indents_{0};
};

} // namespace spl
