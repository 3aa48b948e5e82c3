// Parses one in-memory C++ translation unit with libclang for the header front-end.
#include "frontend/clang_unit.h"

#include <stdexcept>

namespace codegen::clang {

std::string take(CXString s) {
    const char* text = clang_getCString(s);
    std::string out = text ? text : "";
    clang_disposeString(s);
    return out;
}

std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }

Place place_of(CXSourceLocation location) {
    Place p;
    clang_getExpansionLocation(location, &p.file, &p.line, nullptr, &p.offset);
    if (p.file) p.path = take(clang_getFileName(p.file));
    return p;
}

namespace {

// The errors of a parse, formatted as clang prints them; at most `limit`.
std::string first_errors(CXTranslationUnit tu, unsigned limit, unsigned* count) {
    std::string out;
    *count = 0;
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && (*count)++ < limit)
            out += "\n  " + take(clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions()));
        clang_disposeDiagnostic(d);
    }
    return out;
}

} // namespace

Unit::Unit(const std::string& name, const std::string& source, const std::vector<std::string>& args) {
    index_ = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    CXUnsavedFile file{name.c_str(), source.data(), static_cast<unsigned long>(source.size())};
    const CXErrorCode code =
        clang_parseTranslationUnit2(index_, name.c_str(), argv.data(), static_cast<int>(argv.size()), &file, 1,
                                    CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_Incomplete, &tu_);
    if (code != CXError_Success || !tu_) {
        clang_disposeIndex(index_);
        throw std::runtime_error("libclang could not parse " + name + " (error " + std::to_string(code) + ")");
    }
    unsigned errors = 0;
    const std::string shown = first_errors(tu_, 5, &errors);
    if (errors) {
        clang_disposeTranslationUnit(tu_);
        clang_disposeIndex(index_);
        throw std::runtime_error("libclang: " + std::to_string(errors) + " error(s) parsing " + name + ":" + shown);
    }
}

Unit::~Unit() {
    clang_disposeTranslationUnit(tu_);
    clang_disposeIndex(index_);
}

} // namespace codegen::clang
