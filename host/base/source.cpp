// Source files, line lookup for file:line:col positions, and which files belong to a library.
#include "base/source.h"

#include <fstream>
#include <sstream>

namespace spl {

SourceFile::SourceFile(std::string path, std::string text, bool library)
    : path_(std::move(path)), text_(std::move(text)), library_(library) {
    line_starts_.push_back(0);
    for (uint32_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view SourceFile::line_text(uint32_t line) const {
    if (line == 0 || line > line_starts_.size()) return {};
    uint32_t begin = line_starts_[line - 1];
    uint32_t end = line < line_starts_.size() ? line_starts_[line] : uint32_t(text_.size());
    while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
    return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceLoc::str() const {
    if (!file) return "<unknown>";
    return file->path() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const SourceFile& SourceManager::add(std::string path, std::string text, bool library) {
    files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text), library));
    return *files_.back();
}

const SourceFile* SourceManager::load(const std::string& path, bool library) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return nullptr;
    std::ostringstream buf;
    buf << in.rdbuf();
    return &add(path, buf.str(), library);
}

} // namespace spl
