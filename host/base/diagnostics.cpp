// Renders a ProgramError: location, source line, caret and the calls that led there.
#include "base/diagnostics.h"

#include <algorithm>

namespace spl {

void throw_error(ErrorKind kind, SourceLoc loc, std::string message) {
    throw ProgramError(kind, std::move(message), loc);
}

void runtime_error_from(ErrorOrigin origin, SourceLoc loc, std::string message) {
    ProgramError e(ErrorKind::Runtime, std::move(message), loc);
    e.origin = origin;
    throw e;
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

// A line longer than this many bytes is shown as the part around the column, so that
// an error in a generated one-line program of megabytes prints a line, not the program.
constexpr size_t kExcerptBytes = 120;

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

} // namespace

std::string source_excerpt(SourceLoc loc) {
    if (!loc.known()) return "";
    std::string_view line = loc.file->line_text(loc.line);
    uint32_t col = loc.col;
    std::string before, after;
    if (line.size() > kExcerptBytes) {
        size_t at = 0; // the byte where column `col` starts
        for (uint32_t cp = 1; at < line.size() && cp < col; ++cp)
            while (++at < line.size() && utf8_continuation(line[at])) {}
        size_t begin = at > kExcerptBytes / 2 ? at - kExcerptBytes / 2 : 0;
        while (begin > 0 && utf8_continuation(line[begin])) --begin;
        size_t end = std::min(line.size(), begin + kExcerptBytes);
        while (end < line.size() && utf8_continuation(line[end])) --end;
        for (size_t i = 0; i < begin; ++i)
            if (!utf8_continuation(line[i])) --col;
        if (begin > 0) {
            before = "...";
            col += 3;
        }
        if (end < line.size()) after = "...";
        line = line.substr(begin, end - begin);
    }
    std::string shown = before + std::string(line) + after;
    std::string num = std::to_string(loc.line);
    std::string gutter(num.size(), ' ');
    std::string out;
    out += gutter + " |\n";
    out += num + " | " + shown + "\n";
    out += gutter + " | " + padding_to(shown, col) + "^\n";
    return out;
}

// Where to point an error: where it was raised, unless that is library code
// called from the program; then the innermost call in the program's own
// files (the user's line first, as Python's traceback ends at the user's
// call), with the library frames listed after it. Returns the frame index:
// 0 is the raise site, k >= 1 the call site trace[k - 1].
namespace {
size_t user_frame(const ProgramError& e) {
    if (!e.loc.known() || !e.loc.file->is_library()) return 0;
    for (size_t k = 1; k <= e.trace.size(); ++k) {
        const SourceLoc& at = e.trace[k - 1].call_site;
        if (at.known() && !at.file->is_library()) return k;
    }
    return 0;
}
} // namespace

SourceLoc report_location(const ProgramError& e) {
    size_t k = e.kind == ErrorKind::Syntax ? 0 : user_frame(e);
    return k == 0 ? e.loc : e.trace[k - 1].call_site;
}

std::string format_error(const ProgramError& e) {
    std::string out;
    const size_t max_trace = 12;
    if (e.kind == ErrorKind::Syntax) {
        out += e.loc.str() + ": " + e.message + "\n";
        out += source_excerpt(e.loc);
        for (const auto& note : e.notes) out += "   = " + note + "\n";
        return out;
    }
    const size_t k = user_frame(e);
    const SourceLoc& at = k == 0 ? e.loc : e.trace[k - 1].call_site;
    out += "error: " + e.message + "\n";
    if (at.known()) {
        out += "  --> " + at.str() + "\n";
        out += source_excerpt(at);
    }
    for (const auto& note : e.notes) out += "   = " + note + "\n";
    // The calls that led to the line shown, innermost first.
    for (size_t i = k; i < e.trace.size() && i < k + max_trace; ++i) {
        const auto& t = e.trace[i];
        // A call with no place in the source: a plugin ran it (a backward function, a hook).
        out += "   = in `" + t.function + "`, called " +
               (t.call_site.known() ? "from " + t.call_site.str() : std::string("by a plugin")) + "\n";
    }
    if (e.trace.size() > k + max_trace)
        out += "   = ... " + std::to_string(e.trace.size() - k - max_trace) + " more calls\n";
    // Then the library frames below that call, from the function the program
    // called down to the line that raised the error.
    if (k > 0) {
        out += "   = raised inside the library:\n";
        const size_t first = k > max_trace ? k - max_trace : 0;
        if (first > 0) out += "   =   ... " + std::to_string(first) + " more calls\n";
        for (size_t i = k; i-- > first;) {
            const SourceLoc& where = i == 0 ? e.loc : e.trace[i - 1].call_site;
            out += "   =   `" + e.trace[i].function + "` at " + where.str() + "\n";
        }
    }
    return out;
}

} // namespace spl
