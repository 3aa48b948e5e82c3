#include "diagnostics.h"

namespace spl {

void throw_error(ErrorKind kind, SourceLoc loc, std::string message) {
    throw SplError(kind, std::move(message), loc);
}

namespace {

// Spaces that line up with column `col` of `line` (tabs kept as tabs so the
// caret sits under the right character whatever the terminal's tab width).
std::string padding_to(std::string_view line, uint32_t col) {
    std::string pad;
    uint32_t cp = 1;
    for (size_t i = 0; i < line.size() && cp < col; ++i) {
        unsigned char c = static_cast<unsigned char>(line[i]);
        if ((c & 0xC0) == 0x80) continue; // UTF-8 continuation byte
        pad += c == '\t' ? '\t' : ' ';
        ++cp;
    }
    while (cp++ < col) pad += ' ';
    return pad;
}

} // namespace

std::string source_excerpt(SourceLoc loc) {
    if (!loc.known()) return "";
    std::string_view line = loc.file->line_text(loc.line);
    std::string num = std::to_string(loc.line);
    std::string gutter(num.size(), ' ');
    std::string out;
    out += gutter + " |\n";
    out += num + " | " + std::string(line) + "\n";
    out += gutter + " | " + padding_to(line, loc.col) + "^\n";
    return out;
}

std::string format_error(const SplError& e) {
    std::string out;
    if (e.kind == ErrorKind::Syntax) {
        out += e.loc.str() + ": " + e.message + "\n";
        out += source_excerpt(e.loc);
    } else {
        out += "error: " + e.message + "\n";
        if (e.loc.known()) {
            out += "  --> " + e.loc.str() + "\n";
            out += source_excerpt(e.loc);
        }
    }
    for (const auto& note : e.notes) out += "   = " + note + "\n";
    const size_t max_trace = 12;
    for (size_t i = 0; i < e.trace.size() && i < max_trace; ++i) {
        const auto& t = e.trace[i];
        out += "   = in `" + t.function + "`, called from " + t.call_site.str() + "\n";
    }
    if (e.trace.size() > max_trace)
        out += "   = ... " + std::to_string(e.trace.size() - max_trace) + " more calls\n";
    return out;
}

} // namespace spl
