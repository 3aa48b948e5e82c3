// token_cursor.h — reading a token vector one token at a time, shared by the
// parser and the type grammar so that both step and report errors alike: the
// last token (Eof) is never stepped past, and a wrong token is reported as
// "expected X, found Y" at its position.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "syntax/lexer.h"

namespace spl {

class TokenCursor {
public:
    // Borrows both: the parser owns its tokens, and a type is parsed in place
    // from the parser's tokens at the parser's position.
    TokenCursor(const std::vector<Token>& toks, size_t& pos) : tokens_(&toks), position_(&pos) {}

    const Token& cur() const { return (*tokens_)[*position_]; }
    const Token& peek(size_t k = 1) const { return (*tokens_)[std::min(*position_ + k, tokens_->size() - 1)]; }
    bool at(Tok t) const { return cur().kind == t; }
    const Token& advance() {
        const Token& t = cur();
        if (*position_ + 1 < tokens_->size()) ++*position_;
        return t;
    }
    bool accept(Tok t) {
        if (!at(t)) return false;
        advance();
        return true;
    }
    const Token& expect(Tok t, const std::string& what) {
        if (!at(t)) fail_expected(what);
        return advance();
    }
    [[noreturn]] void fail_expected(const std::string& what) const {
        throw_error(ErrorKind::Syntax, cur().loc, "expected " + what + ", found " + describe_token(cur()));
    }

private:
    const std::vector<Token>* tokens_;
    size_t* position_;
};

} // namespace spl
