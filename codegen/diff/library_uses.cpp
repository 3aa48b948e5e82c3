// Finds the hand-written lib.torch lines that call an entry point an upgrade changes.
#include "diff/library_uses.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace codegen::diff {

namespace {

size_t indentation(const std::string& line) { return line.find_first_not_of(" \t"); }

std::string trimmed(const std::string& line) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) return "";
    return line.substr(start, line.find_last_not_of(" \t\r") + 1 - start);
}

// The code of a line: without a `#` comment (a `#` inside a string literal
// is rare enough in the library to ignore).
std::string code_of(const std::string& line) { return line.substr(0, line.find('#')); }

// Which fn (and class) a line belongs to, from indentation alone, as
// Simple's blocks are indentation-based.
class Scope {
public:
    void enter(const std::string& line) {
        const size_t indent = indentation(line);
        while (!open_.empty() && open_.back().indent >= indent) open_.pop_back();
        static const std::regex block(
            R"(^\s*(?:(?:pub|static|extern)\s+)*(fn|class|impl|struct|trait)\s+([A-Za-z_]\w*))");
        std::smatch m;
        if (std::regex_search(line, m, block)) open_.push_back({indent, m[1] == "fn", m[2]});
    }

    // "Tensor.add": the innermost fn, qualified by the blocks around it.
    std::string function() const {
        auto fn = std::find_if(open_.rbegin(), open_.rend(), [](const Block& b) { return b.is_fn; });
        if (fn == open_.rend()) return "";
        std::string name;
        for (auto it = open_.begin(); it != fn.base(); ++it) name += (name.empty() ? "" : ".") + it->name;
        return name;
    }

private:
    struct Block {
        size_t indent;
        bool is_fn;
        std::string name;
    };
    std::vector<Block> open_;
};

// Relative to the working directory when below it (what people run the
// report from), else as found.
std::string shown_path(const std::filesystem::path& path) {
    const auto cwd = std::filesystem::current_path();
    const auto absolute = std::filesystem::absolute(path).lexically_normal();
    const auto relative = absolute.lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..") return relative.string();
    return absolute.string();
}

bool is_generated(const std::string& path) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    return first.find("@generated") != std::string::npos;
}

void scan_file(const std::string& path, const std::map<std::string, std::string>& changes,
               std::vector<LibraryUse>& out) {
    static const std::regex entry_point(R"(\brt_torch_\w+)");
    std::ifstream in(path);
    std::string line;
    Scope scope;
    bool in_docstring = false;
    for (int number = 1; std::getline(in, line); ++number) {
        const bool docstring_line = line.find("\"\"\"") != std::string::npos;
        size_t quotes = 0;
        for (size_t at = line.find("\"\"\""); at != std::string::npos; at = line.find("\"\"\"", at + 3)) ++quotes;
        const bool was_in_docstring = in_docstring;
        if (quotes % 2) in_docstring = !in_docstring;
        if (was_in_docstring || docstring_line || trimmed(line).empty()) continue;
        const std::string code = code_of(line);
        if (trimmed(code).empty()) continue;
        scope.enter(code);
        for (std::sregex_iterator it(code.begin(), code.end(), entry_point), end; it != end; ++it) {
            const auto change = changes.find(it->str());
            if (change != changes.end())
                out.push_back({path, number, scope.function(), it->str(), change->second, trimmed(line)});
        }
    }
}

} // namespace

LibraryScan find_library_uses(const std::string& library_dir, const std::map<std::string, std::string>& changes) {
    if (!std::filesystem::is_directory(library_dir))
        throw std::runtime_error("no Simple library directory " + library_dir);
    LibraryScan scan;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(library_dir)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".spl") continue;
        const std::string path = shown_path(entry.path());
        (is_generated(path) ? scan.skipped_generated : scan.scanned).push_back(path);
    }
    std::sort(scan.scanned.begin(), scan.scanned.end());
    std::sort(scan.skipped_generated.begin(), scan.skipped_generated.end());
    for (const std::string& path : scan.scanned) scan_file(path, changes, scan.uses);
    return scan;
}

} // namespace codegen::diff
