// source.h — source files and positions inside them.
//
// Every token, AST node and error carries a SourceLoc that points back at the
// SourceFile it came from; files are owned by a SourceManager and never move,
// so those pointers stay valid for the whole run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace spl {

class SourceFile {
public:
    SourceFile(std::string path, std::string text, bool library = false);

    const std::string& path() const { return path_; }
    const std::string& text() const { return text_; }
    // A module of a library root (-L, SIMPLE_LIB), not one of the program's
    // own files: errors raised in it are reported at the program's call.
    bool is_library() const { return library_; }
    // The text of a 1-based line, without its newline ("" when out of range).
    std::string_view line_text(uint32_t line) const;

private:
    std::string path_;
    std::string text_;
    bool library_;
    std::vector<uint32_t> line_starts_;
};

struct SourceLoc {
    const SourceFile* file = nullptr;
    uint32_t line = 0; // 1-based; 0 when unknown
    uint32_t col = 0;  // 1-based, counted in code points

    bool known() const { return file != nullptr && line != 0; }
    std::string str() const; // "path:line:col"
};

// Owns every file read during a run.
class SourceManager {
public:
    const SourceFile& add(std::string path, std::string text, bool library = false);
    // Reads a file from disk; nullptr when it cannot be read.
    const SourceFile* load(const std::string& path, bool library = false);

private:
    std::vector<std::unique_ptr<SourceFile>> files_;
};

} // namespace spl
