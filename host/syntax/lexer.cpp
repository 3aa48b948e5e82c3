// Text to tokens, with indentation as INDENT/DEDENT and interpolated text split into pieces.
#include "syntax/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "base/diagnostics.h"
#include "syntax/nesting.h"

namespace spl {

namespace {

const std::unordered_map<std::string_view, Tok>& keywords() {
    static const std::unordered_map<std::string_view, Tok> table = {
        {"fn", Tok::KwFn},
        {"val", Tok::KwVal},
        {"var", Tok::KwVar},
        {"let", Tok::KwLet},
        {"return", Tok::KwReturn},
        {"if", Tok::KwIf},
        {"elif", Tok::KwElif},
        {"else", Tok::KwElse},
        {"while", Tok::KwWhile},
        {"for", Tok::KwFor},
        {"in", Tok::KwIn},
        {"break", Tok::KwBreak},
        {"continue", Tok::KwContinue},
        {"pass", Tok::KwPass},
        {"class", Tok::KwClass},
        {"struct", Tok::KwStruct},
        {"enum", Tok::KwEnum},
        {"impl", Tok::KwImpl},
        {"trait", Tok::KwTrait},
        {"match", Tok::KwMatch},
        {"case", Tok::KwCase},
        {"use", Tok::KwUse},
        {"export", Tok::KwExport},
        {"extern", Tok::KwExtern},
        {"true", Tok::KwTrue},
        {"false", Tok::KwFalse},
        {"nil", Tok::KwNil},
        {"and", Tok::KwAnd},
        {"or", Tok::KwOr},
        {"not", Tok::KwNot},
        {"with", Tok::KwWith},
        {"as", Tok::KwAs},
    };
    return table;
}

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

size_t utf8_count(std::string_view s) {
    size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

} // namespace

std::string describe_token(const Token& t) {
    switch (t.kind) {
    case Tok::Ident: return "identifier `" + std::string(t.text) + "`";
    case Tok::Int:
    case Tok::Float: return "number `" + std::string(t.text) + "`";
    case Tok::Str:
    case Tok::RawStr: return "text " + std::string(t.text.substr(0, 40));
    default: return tok_name(t.kind);
    }
}

std::string tok_name(Tok t) {
    switch (t) {
    case Tok::Eof: return "end of file";
    case Tok::Newline: return "end of line";
    case Tok::Indent: return "indented block";
    case Tok::Dedent: return "end of block";
    case Tok::Ident: return "identifier";
    case Tok::Int: return "integer";
    case Tok::Float: return "float";
    case Tok::Str:
    case Tok::RawStr: return "text";
    case Tok::LParen: return "`(`";
    case Tok::RParen: return "`)`";
    case Tok::LBracket: return "`[`";
    case Tok::RBracket: return "`]`";
    case Tok::LBrace: return "`{`";
    case Tok::RBrace: return "`}`";
    case Tok::Comma: return "`,`";
    case Tok::Colon: return "`:`";
    case Tok::Dot: return "`.`";
    case Tok::DotDot: return "`..`";
    case Tok::DotDotEq: return "`..=`";
    case Tok::Arrow: return "`->`";
    case Tok::FatArrow: return "`=>`";
    case Tok::Question: return "`?`";
    case Tok::QuestionQuestion: return "`??`";
    case Tok::Backslash: return "`\\`";
    case Tok::Pipe: return "`|`";
    case Tok::At: return "`@`";
    case Tok::Plus: return "`+`";
    case Tok::Minus: return "`-`";
    case Tok::Star: return "`*`";
    case Tok::Slash: return "`/`";
    case Tok::Percent: return "`%`";
    case Tok::StarStar: return "`**`";
    case Tok::Assign: return "`=`";
    case Tok::EqEq: return "`==`";
    case Tok::NotEq: return "`!=`";
    case Tok::Lt: return "`<`";
    case Tok::Le: return "`<=`";
    case Tok::Gt: return "`>`";
    case Tok::Ge: return "`>=`";
    case Tok::PlusEq: return "`+=`";
    case Tok::MinusEq: return "`-=`";
    case Tok::StarEq: return "`*=`";
    case Tok::SlashEq: return "`/=`";
    case Tok::PercentEq: return "`%=`";
    default:
        for (const auto& [name, kind] : keywords())
            if (kind == t) return "`" + std::string(name) + "`";
        return "token";
    }
}

Lexer::Lexer(const SourceFile& file)
    : file_(file), src_(file.text()), pos_(0), end_(file.text().size()), line_(1), col_(1), layout_enabled_(true) {}

Lexer::Lexer(const SourceFile& file, uint32_t begin, uint32_t end, uint32_t line, uint32_t col)
    : file_(file), src_(file.text()), pos_(begin), end_(end), line_(line), col_(col), layout_enabled_(false),
      at_line_start_(false) {}

char Lexer::peek(size_t ahead) const { return pos_ + ahead < end_ ? src_[pos_ + ahead] : '\0'; }

char Lexer::advance() {
    char c = src_[pos_++];
    if (c == '\n') {
        ++line_;
        col_ = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++col_;
    }
    return c;
}

void Lexer::fail(SourceLoc loc, const std::string& message) const { throw_error(ErrorKind::Syntax, loc, message); }

void Lexer::emit(std::vector<Token>& out, Tok kind, SourceLoc loc, size_t begin) {
    Token t;
    t.kind = kind;
    t.loc = loc;
    t.text = std::string_view(src_).substr(begin, pos_ - begin);
    out.push_back(std::move(t));
}

std::vector<Token> Lexer::tokenize() {
    std::vector<Token> out;
    // A whole file: about one token per 4 bytes of source (generated libraries run to
    // hundreds of KB), reserved to avoid copying the vector as it grows. Not an interpolation's
    // fragment: a fragment holds the fragments nested in it, so reserving by its length
    // reserves, over N nested levels, N times the source at once (as much memory as the
    // nesting limit lets through).
    out.reserve(layout_enabled_ ? (end_ - pos_) / 4 + 8 : 8);
    while (true) {
        if (layout_enabled_ && at_line_start_ && bracket_depth_ == 0) {
            layout(out);
            if (pos_ >= end_) break;
        }
        char c = peek();
        if (pos_ >= end_) break;
        if (c == ' ' || c == '\t' || c == '\r') {
            advance();
            continue;
        }
        if (c == '#') {
            while (pos_ < end_ && peek() != '\n') advance();
            continue;
        }
        if (c == '\n') {
            SourceLoc loc = here();
            size_t begin = pos_;
            advance();
            if (layout_enabled_ && bracket_depth_ == 0) {
                if (!out.empty() && out.back().kind != Tok::Newline && out.back().kind != Tok::Indent &&
                    out.back().kind != Tok::Dedent)
                    emit(out, Tok::Newline, loc, begin);
                at_line_start_ = true;
            }
            continue;
        }
        if (c == '\\') {
            // A backslash ending a line continues it; otherwise it starts a lambda.
            size_t k = 1;
            while (peek(k) == ' ' || peek(k) == '\t' || peek(k) == '\r') ++k;
            if (peek(k) == '\n') {
                while (k-- > 0) advance();
                advance();
                continue;
            }
        }
        if (is_digit(c)) {
            lex_number(out);
            continue;
        }
        if (is_ident_start(c)) {
            SourceLoc loc = here();
            size_t begin = pos_;
            while (pos_ < end_ && is_ident_char(peek())) advance();
            std::string_view word = std::string_view(src_).substr(begin, pos_ - begin);
            auto kw = keywords().find(word);
            emit(out, kw == keywords().end() ? Tok::Ident : kw->second, loc, begin);
            continue;
        }
        if (c == '"') {
            if (peek(1) == '"' && peek(2) == '"')
                lex_triple_string(out);
            else
                lex_string(out);
            continue;
        }
        if (c == '\'') {
            lex_raw_string(out);
            continue;
        }
        if (lex_operator(out)) continue;
        fail(here(), std::string("unexpected character `") + c + "`");
    }
    if (layout_enabled_) {
        if (!out.empty() && out.back().kind != Tok::Newline && out.back().kind != Tok::Dedent)
            emit(out, Tok::Newline, here(), pos_);
        while (indents_.size() > 1) {
            indents_.pop_back();
            emit(out, Tok::Dedent, here(), pos_);
        }
    }
    emit(out, Tok::Eof, here(), pos_);
    return out;
}

void Lexer::layout(std::vector<Token>& out) {
    // Skip blank and comment-only lines, then measure the indentation.
    while (true) {
        uint32_t width = 0;
        while (pos_ < end_ && (peek() == ' ' || peek() == '\t')) {
            width = peek() == '\t' ? (width / 4 + 1) * 4 : width + 1;
            advance();
        }
        if (pos_ >= end_) return;
        char c = peek();
        if (c == '\r' || c == '\n' || c == '#') {
            while (pos_ < end_ && peek() != '\n') advance();
            if (pos_ < end_) advance();
            continue;
        }
        at_line_start_ = false;
        // A line starting with `.name` continues the previous one (method chains).
        if (c == '.' && is_ident_start(peek(1)) && !out.empty() && out.back().kind == Tok::Newline) {
            out.pop_back();
            return;
        }
        SourceLoc loc = here();
        if (width > indents_.back()) {
            indents_.push_back(width);
            emit(out, Tok::Indent, loc, pos_);
        } else {
            std::string levels; // for the message: the blocks this line could close to
            for (size_t i = indents_.size(); i-- > 0;)
                levels += (levels.empty() ? "" : i == 0 ? " or " : ", ") + std::to_string(indents_[i]);
            while (width < indents_.back()) {
                indents_.pop_back();
                emit(out, Tok::Dedent, loc, pos_);
            }
            if (width != indents_.back())
                fail(loc, "expected an indentation of " + levels + " spaces (an enclosing block), found " +
                              std::to_string(width));
        }
        return;
    }
}

void Lexer::lex_number(std::vector<Token>& out) {
    SourceLoc loc = here();
    size_t begin = pos_;
    std::string digits;
    bool is_float = false;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'b' || peek(1) == 'B')) {
        int base = (peek(1) == 'x' || peek(1) == 'X') ? 16 : 2;
        advance();
        advance();
        while (pos_ < end_ && (isxdigit(static_cast<unsigned char>(peek())) || peek() == '_')) {
            if (base == 2 && peek() != '0' && peek() != '1' && peek() != '_')
                fail(here(), std::string("invalid digit '") + peek() + "' in binary literal");
            char c = advance();
            if (c != '_') digits += c;
        }
        if (digits.empty()) fail(loc, "expected digits after the base prefix");
        Token t;
        t.kind = Tok::Int;
        t.loc = loc;
        // strtoull, not stoull: too many digits is this error, not an exception out of the lexer.
        errno = 0;
        const unsigned long long value = std::strtoull(digits.c_str(), nullptr, base);
        if (errno == ERANGE) fail(loc, "integer literal out of range for i64");
        t.int_value = static_cast<int64_t>(value);
        t.text = std::string_view(src_).substr(begin, pos_ - begin);
        out.push_back(std::move(t));
        return;
    }
    auto take_digits = [&] {
        while (pos_ < end_ && (is_digit(peek()) || peek() == '_')) {
            char c = advance();
            if (c != '_') digits += c;
        }
    };
    take_digits();
    // `1.5` is a float, but `0..n` is a range and `t.0.1` a member chain.
    if (peek() == '.' && is_digit(peek(1)) && (out.empty() || out.back().kind != Tok::Dot)) {
        is_float = true;
        digits += advance();
        take_digits();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '-' || peek(1) == '+') && is_digit(peek(2))))) {
        is_float = true;
        digits += advance();
        if (peek() == '-' || peek() == '+') digits += advance();
        take_digits();
    }
    // An optional type suffix: 1i64, 2.0f32, 3f64.
    if (peek() == 'i' || peek() == 'f' || peek() == 'u') {
        size_t k = 1;
        while (is_digit(peek(k))) ++k;
        if (k > 1 && !is_ident_char(peek(k))) {
            if (peek() == 'f')
                is_float = true;
            else if (is_float)
                fail(here(), "an integer suffix on a float literal");
            while (k-- > 0) advance();
        }
    }
    if (is_ident_start(peek()))
        fail(here(), "expected a digit or operator after the number, found `" + std::string(1, peek()) + "`");
    Token t;
    t.loc = loc;
    t.text = std::string_view(src_).substr(begin, pos_ - begin);
    if (is_float) {
        t.kind = Tok::Float;
        // strtod, not stod: a subnormal (5e-324) or an overflowing literal (1e999) is a
        // valid Python float literal (the nearest double, or inf) and must not throw.
        t.float_value = std::strtod(digits.c_str(), nullptr);
    } else {
        t.kind = Tok::Int;
        errno = 0;
        unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
        if (errno == ERANGE || v > 9223372036854775808ull) fail(loc, "integer literal out of range for i64");
        t.int_value = static_cast<int64_t>(v);
    }
    out.push_back(std::move(t));
}

// Skips an interpolated expression `{ ... }` (the opening brace already
// consumed), allowing nested braces and string literals inside it.
uint32_t Lexer::skip_interpolation() {
    int depth = 1;
    while (pos_ < end_) {
        char c = peek();
        if (c == '\n') break;
        if (c == '"' || c == '\'') {
            char quote = advance();
            while (pos_ < end_ && peek() != quote && peek() != '\n') {
                if (peek() == '\\' && quote == '"') advance();
                advance();
            }
            if (peek() == quote) advance();
            continue;
        }
        if (c == '{') ++depth;
        if (c == '}' && --depth == 0) return static_cast<uint32_t>(pos_);
        advance();
    }
    fail(here(),
         "expected `}` to close the interpolation, found " + std::string(pos_ >= end_ ? "end of file" : "end of line"));
}

// Where an interpolation's format spec starts: the first `:` outside
// brackets and text literals, as in Python's f-strings, that no inline `if`
// claims: each `if`, `elif` and `else` word at the top level owns the next
// top-level `:` (`{if ok: a else: b}`, then `:>5` after it is the spec). A
// lambda at the top level still goes in parentheses (`{(\x: x)(1)}`).
uint32_t Lexer::spec_colon(uint32_t begin, uint32_t end) const {
    auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    int depth = 0;
    int claimed = 0; // colons owed to `if` / `elif` / `else` words seen so far
    for (uint32_t i = begin; i < end; ++i) {
        char c = src_[i];
        if (c == '"' || c == '\'') {
            for (++i; i < end && src_[i] != c; ++i)
                if (src_[i] == '\\' && c == '"') ++i;
            continue;
        }
        if (word_char(c)) {
            uint32_t j = i;
            while (j < end && word_char(src_[j])) ++j;
            std::string_view word(src_.data() + i, j - i);
            if (depth == 0 && (word == "if" || word == "elif" || word == "else")) ++claimed;
            i = j - 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}')
            --depth;
        else if (c == ':' && depth == 0 && claimed-- == 0)
            return i;
    }
    return end;
}

void Lexer::lex_string(std::vector<Token>& out) {
    SourceLoc loc = here();
    size_t begin = pos_;
    advance(); // opening quote
    Token t;
    t.kind = Tok::Str;
    t.loc = loc;
    StrPart lit;
    while (true) {
        if (pos_ >= end_ || peek() == '\n') fail(loc, "unterminated text literal");
        char c = advance();
        if (c == '"') break;
        if (c == '\\') {
            if (pos_ >= end_) fail(loc, "unterminated text literal");
            SourceLoc esc = here();
            char e = advance();
            switch (e) {
            case 'n': lit.text += '\n'; break;
            case 't': lit.text += '\t'; break;
            case 'r': lit.text += '\r'; break;
            case '0': lit.text += '\0'; break;
            case '\\': lit.text += '\\'; break;
            case '"': lit.text += '"'; break;
            case '\'': lit.text += '\''; break;
            case '{': lit.text += '{'; break;
            case '}': lit.text += '}'; break;
            case 'u': {
                if (peek() != '{') fail(esc, "expected `{` after \\u");
                advance();
                std::string hex;
                while (pos_ < end_ && isxdigit(static_cast<unsigned char>(peek()))) hex += advance();
                if (peek() != '}' || hex.empty()) fail(esc, "expected hex digits and `}` in \\u{...}");
                advance();
                // At most six digits, then the value: no stoul, whose out_of_range would end splrun.
                const size_t significant = hex.size() - std::min(hex.find_first_not_of('0'), hex.size());
                const uint32_t code =
                    significant > 6 ? 0x110000u : static_cast<uint32_t>(std::strtoul(hex.c_str(), nullptr, 16));
                if (code > 0x10FFFF) fail(esc, "invalid unicode character escape: \\u{" + hex + "} is past U+10FFFF");
                append_utf8(lit.text, code);
                break;
            }
            default: fail(esc, std::string("unknown escape `\\") + e + "`");
            }
            continue;
        }
        if (c == '{') {
            StrPart expr;
            expr.is_expr = true;
            expr.begin = static_cast<uint32_t>(pos_);
            expr.line = line_;
            expr.col = col_;
            uint32_t close = skip_interpolation();
            expr.end = spec_colon(expr.begin, close);
            if (expr.end < close) {
                expr.has_spec = true;
                expr.spec = src_.substr(expr.end + 1, close - expr.end - 1);
                // On one line with the closing brace, where the lexer stands now.
                expr.spec_line = line_;
                expr.spec_col = col_ - static_cast<uint32_t>(utf8_count(expr.spec));
                if (expr.spec.find_first_of("{}") != std::string::npos)
                    fail(SourceLoc{&file_, expr.spec_line, expr.spec_col},
                         "a format spec cannot contain `{` or `}` (nested fields are not supported)");
            }
            advance(); // closing brace
            std::string_view inner = std::string_view(src_).substr(expr.begin, expr.end - expr.begin);
            if (inner.find_first_not_of(" \t") == std::string_view::npos)
                fail(SourceLoc{&file_, expr.line, expr.col},
                     "expected an expression inside `{}` (write `\\{` for a literal brace)");
            t.parts.push_back(std::move(lit));
            lit = StrPart{};
            t.parts.push_back(std::move(expr));
            continue;
        }
        lit.text += c;
    }
    if (t.parts.empty()) {
        t.str_value = std::move(lit.text);
    } else {
        t.parts.push_back(std::move(lit));
    }
    t.text = std::string_view(src_).substr(begin, pos_ - begin);
    out.push_back(std::move(t));
}

// """...""": multi-line, no escapes and no interpolation (docstrings).
void Lexer::lex_triple_string(std::vector<Token>& out) {
    SourceLoc loc = here();
    size_t begin = pos_;
    advance();
    advance();
    advance();
    size_t body = pos_;
    while (true) {
        if (pos_ >= end_) fail(loc, "unterminated \"\"\" text literal");
        if (peek() == '"' && peek(1) == '"' && peek(2) == '"') break;
        advance();
    }
    Token t;
    t.kind = Tok::RawStr;
    t.loc = loc;
    t.str_value = src_.substr(body, pos_ - body);
    advance();
    advance();
    advance();
    t.text = std::string_view(src_).substr(begin, pos_ - begin);
    out.push_back(std::move(t));
}

// 'raw': everything up to the next single quote, verbatim.
void Lexer::lex_raw_string(std::vector<Token>& out) {
    SourceLoc loc = here();
    size_t begin = pos_;
    advance();
    size_t body = pos_;
    while (true) {
        if (pos_ >= end_ || peek() == '\n') fail(loc, "unterminated raw text literal");
        if (peek() == '\'') break;
        advance();
    }
    Token t;
    t.kind = Tok::RawStr;
    t.loc = loc;
    t.str_value = src_.substr(body, pos_ - body);
    advance();
    t.text = std::string_view(src_).substr(begin, pos_ - begin);
    out.push_back(std::move(t));
}

bool Lexer::lex_operator(std::vector<Token>& out) {
    struct Op {
        const char* text;
        Tok kind;
    };
    // Longest first.
    static const Op ops[] = {
        {"..=", Tok::DotDotEq}, {"**", Tok::StarStar},  {"..", Tok::DotDot},
        {"->", Tok::Arrow},     {"=>", Tok::FatArrow},  {"??", Tok::QuestionQuestion},
        {"==", Tok::EqEq},      {"!=", Tok::NotEq},     {"<=", Tok::Le},
        {">=", Tok::Ge},        {"+=", Tok::PlusEq},    {"-=", Tok::MinusEq},
        {"*=", Tok::StarEq},    {"/=", Tok::SlashEq},   {"%=", Tok::PercentEq},
        {"(", Tok::LParen},     {")", Tok::RParen},     {"[", Tok::LBracket},
        {"]", Tok::RBracket},   {"{", Tok::LBrace},     {"}", Tok::RBrace},
        {",", Tok::Comma},      {":", Tok::Colon},      {".", Tok::Dot},
        {"?", Tok::Question},   {"\\", Tok::Backslash}, {"|", Tok::Pipe},
        {"@", Tok::At},         {"+", Tok::Plus},       {"-", Tok::Minus},
        {"*", Tok::Star},       {"/", Tok::Slash},      {"%", Tok::Percent},
        {"=", Tok::Assign},     {"<", Tok::Lt},         {">", Tok::Gt},
    };
    const char c = peek();
    for (const Op& op : ops) {
        // The first character rules out all but a few: this runs for every operator of
        // every source file, 3,100 declarations of ffi.spl among them.
        if (op.text[0] != c) continue;
        size_t n = std::strlen(op.text);
        if (src_.compare(pos_, n, op.text) != 0 || pos_ + n > end_) continue;
        SourceLoc loc = here();
        size_t begin = pos_;
        for (size_t i = 0; i < n; ++i) advance();
        if (op.kind == Tok::LParen || op.kind == Tok::LBracket || op.kind == Tok::LBrace) {
            // Refused here as well as in the parser: a file of a million `(` then fails
            // at the first one too many, before the rest of it is made into tokens.
            if (bracket_depth_ >= kMaxNesting)
                fail(loc, std::string("too many nested ") +
                              (op.kind == Tok::LParen     ? "parentheses"
                               : op.kind == Tok::LBracket ? "brackets"
                                                          : "braces") +
                              ": more than " + std::to_string(kMaxNesting) + " levels of nesting");
            ++bracket_depth_;
        }
        if ((op.kind == Tok::RParen || op.kind == Tok::RBracket || op.kind == Tok::RBrace) && bracket_depth_ > 0)
            --bracket_depth_;
        emit(out, op.kind, loc, begin);
        return true;
    }
    return false;
}

} // namespace spl
