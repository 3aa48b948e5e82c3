// One C++ translation unit parsed by libclang (C API) from an in-memory
// source, for the header front-end. Function bodies are skipped at parse
// time, which halves the parse of LibTorch's headers; what the front-end
// needs from a body is read from its tokens (clang_tokens.h).
#pragma once

#include <clang-c/Index.h>

#include <string>
#include <vector>

namespace codegen::clang {

// The spelling of a libclang string, which it then frees.
std::string take(CXString s);

// A cursor's name: "add_Tensor", "at", "Tensor".
std::string spelling(CXCursor c);

// Calls `fn` for every direct child of `parent`.
template <typename Fn>
void for_each_child(CXCursor parent, Fn&& fn) {
    clang_visitChildren(
        parent,
        [](CXCursor c, CXCursor, CXClientData data) {
            (*static_cast<Fn*>(data))(c);
            return CXChildVisit_Continue;
        },
        &fn);
}

// Where a cursor is, after macro expansion: the file holding the code that
// the compiler read (for 1.13's STATIC_CONSTEXPR_STR_INL_EXCEPT_WIN_CUDA,
// the _ops.h file, not c10/macros/Macros.h).
struct Place {
    CXFile file = nullptr;
    std::string path;
    unsigned line = 0;
    unsigned offset = 0;
};
Place place_of(CXSourceLocation location);

class Unit {
public:
    // Parses `source` as if it were the file `name`, with compiler `args`
    // (no file name among them). Throws std::runtime_error listing the first
    // errors: a unit with errors would silently lose operators.
    Unit(const std::string& name, const std::string& source, const std::vector<std::string>& args);
    ~Unit();
    Unit(const Unit&) = delete;
    Unit& operator=(const Unit&) = delete;

    CXTranslationUnit tu() const { return tu_; }
    CXCursor root() const { return clang_getTranslationUnitCursor(tu_); }

private:
    CXIndex index_ = nullptr;
    CXTranslationUnit tu_ = nullptr;
};

} // namespace codegen::clang
