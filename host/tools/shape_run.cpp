// shape_run.cpp — the shapes-only run of a program and what of its errors `splrun check` reports.
#include "tools/shape_run.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "eval/shape_probe.h"
#include "tools/big_stack.h"

namespace spl {

namespace {

// Errors that say a value needed its data, which a shape has not: the run could go no further,
// and nothing is wrong with the program for it.
bool needs_data(const std::string& message) {
    std::string m = message;
    std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* sign : {"meta", "shapes-only", "data-dependent", "item()"})
        if (m.find(sign) != std::string::npos) return true;
    return false;
}

bool is_shape_finding(const ProgramError& e) {
    if (e.kind != ErrorKind::Runtime) return false;
    switch (e.origin) {
    case ErrorOrigin::ShapeType: return true;
    case ErrorOrigin::Plugin: return !needs_data(e.message);
    case ErrorOrigin::Program: return e.loc.known() && e.loc.file->is_library() && !needs_data(e.message);
    }
    return false;
}

// Standard output and error sent to /dev/null while the program runs (what it prints, LibTorch's
// warnings), and given back after.
class Silenced {
public:
    Silenced() {
        std::fflush(nullptr);
        out_ = ::dup(1);
        err_ = ::dup(2);
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null >= 0) {
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::close(null);
        }
    }
    ~Silenced() {
        std::fflush(nullptr);
        if (out_ >= 0) ::dup2(out_, 1), ::close(out_);
        if (err_ >= 0) ::dup2(err_, 2), ::close(err_);
    }
    Silenced(const Silenced&) = delete;
    Silenced& operator=(const Silenced&) = delete;

private:
    int out_ = -1, err_ = -1;
};

} // namespace

ShapeRunResult run_for_shapes(const std::string& path, HostOptions options) {
    ::setenv("SPL_TORCH_SHAPES_ONLY", "1", 1); // read by the plugin when it loads
    options.shapes_only = true;
    ShapeRunResult out;
    run_on_big_stack([&] {
        Silenced quiet;
        Interpreter interp(options);
        std::vector<std::pair<ProgramError, std::string>> errors; // with the probe's sizes, if any
        std::optional<ProgramError> stopped = interp.run_program_for_check(path, [&](const ModuleObj& m) {
            for (ProbeFailure& f : probe_shape_functions(interp, m)) errors.emplace_back(f.error, f.sizes);
        });
        if (stopped) errors.insert(errors.begin(), {*stopped, ""});
        // Read here: the errors' locations point into the interpreter's sources.
        for (const auto& [e, sizes] : errors) {
            const SourceLoc at = report_location(e);
            const std::string where = at.known() ? at.str() : "";
            if (!is_shape_finding(e)) {
                out.unknown.push_back((where.empty() ? "" : where + ": ") + e.message);
                continue;
            }
            std::string message = e.message;
            if (!sizes.empty()) message += " (each symbol a size of its own: " + sizes + ")";
            const bool seen = std::any_of(out.findings.begin(), out.findings.end(), [&](const ShapeFinding& f) {
                return f.where == where; // the run's own error first, then a probe's
            });
            if (!seen) out.findings.push_back(ShapeFinding{where, at.line, at.col, message});
        }
    });
    std::stable_sort(out.findings.begin(), out.findings.end(), [](const ShapeFinding& a, const ShapeFinding& b) {
        return a.line != b.line ? a.line < b.line : a.col < b.col;
    });
    return out;
}

} // namespace spl
