// The raw tokens of the files of a clang::Unit. The unit is parsed with
// function bodies skipped, so a body is found here instead: the tokens
// between the `{` that follows a declaration's extent and its matching `}`.
// Each file is tokenized once, on first use.
#pragma once

#include "frontend/clang_unit.h"

#include <map>
#include <string>
#include <vector>

namespace codegen::clang {

class FileTokens {
public:
    explicit FileTokens(CXTranslationUnit tu) : tu_(tu) {}
    ~FileTokens();
    FileTokens(const FileTokens&) = delete;
    FileTokens& operator=(const FileTokens&) = delete;

    // The spellings of the body that follows the function declaration
    // `decl`, braces included; empty when the declaration has no body here.
    std::vector<std::string> body_after(CXCursor decl);

    // Up to `count` token spellings from where `location` is spelled: for
    // code written as a macro argument, the argument's own text (1.13 writes
    // its `schema_str` as STATIC_CONSTEXPR_STR_INL_EXCEPT_WIN_CUDA(schema_str, "...")).
    std::vector<std::string> spelled_from(CXSourceLocation location, unsigned count);

private:
    struct File {
        CXToken* tokens = nullptr;
        unsigned count = 0;
        std::vector<unsigned> offsets; // of each token, ascending
    };
    File& file(CXFile f);
    std::string spell(const File& f, unsigned i) const;

    CXTranslationUnit tu_;
    std::map<CXFile, File> files_;
};

} // namespace codegen::clang
