// Reads the raw tokens of a libclang unit's files, for bodies the parse skipped.
#include "frontend/clang_tokens.h"

#include <algorithm>

namespace codegen::clang {

FileTokens::~FileTokens() {
    for (auto& [handle, f] : files_) clang_disposeTokens(tu_, f.tokens, f.count);
}

FileTokens::File& FileTokens::file(CXFile handle) {
    auto [it, inserted] = files_.try_emplace(handle);
    File& f = it->second;
    if (!inserted) return f;
    size_t size = 0;
    if (!clang_getFileContents(tu_, handle, &size)) return f;
    const CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu_, handle, 0),
                                               clang_getLocationForOffset(tu_, handle, static_cast<unsigned>(size)));
    clang_tokenize(tu_, whole, &f.tokens, &f.count);
    f.offsets.reserve(f.count);
    for (unsigned i = 0; i < f.count; ++i) {
        unsigned offset = 0;
        clang_getFileLocation(clang_getTokenLocation(tu_, f.tokens[i]), nullptr, nullptr, nullptr, &offset);
        f.offsets.push_back(offset);
    }
    return f;
}

std::string FileTokens::spell(const File& f, unsigned i) const {
    return take(clang_getTokenSpelling(tu_, f.tokens[i]));
}

std::vector<std::string> FileTokens::body_after(CXCursor decl) {
    const Place end = place_of(clang_getRangeEnd(clang_getCursorExtent(decl)));
    if (!end.file) return {};
    const File& f = file(end.file);
    unsigned i =
        static_cast<unsigned>(std::lower_bound(f.offsets.begin(), f.offsets.end(), end.offset) - f.offsets.begin());
    // Between the declarator and the body there may be a few specifiers the
    // extent leaves out; a `;` or `,` first means there is no body here.
    static constexpr unsigned max_gap = 16;
    for (unsigned gap = 0;; ++i, ++gap) {
        if (i >= f.count || gap == max_gap) return {};
        const std::string t = spell(f, i);
        if (t == "{") break;
        if (t == ";" || t == "," || t == "}") return {};
    }
    std::vector<std::string> body;
    int depth = 0;
    for (; i < f.count; ++i) {
        body.push_back(spell(f, i));
        if (body.back() == "{")
            ++depth;
        else if (body.back() == "}" && --depth == 0)
            return body;
    }
    return {}; // unbalanced to the end of the file: not a body we can read
}

std::vector<std::string> FileTokens::spelled_from(CXSourceLocation location, unsigned count) {
    CXFile handle = nullptr;
    unsigned offset = 0;
    clang_getSpellingLocation(location, &handle, nullptr, nullptr, &offset);
    if (!handle) return {};
    const File& f = file(handle);
    std::vector<std::string> out;
    for (auto i = std::lower_bound(f.offsets.begin(), f.offsets.end(), offset) - f.offsets.begin();
         i < static_cast<long>(f.count) && out.size() < count; ++i)
        out.push_back(spell(f, static_cast<unsigned>(i)));
    return out;
}

} // namespace codegen::clang
