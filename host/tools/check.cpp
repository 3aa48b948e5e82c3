// check.cpp — `splrun check`: parse each file and run the static checks on it.
#include "tools/check.h"

#include <cstdio>

#include "base/diagnostics.h"
#include "base/source.h"
#include "eval/module_loader.h"
#include "resolve/checks/checks.h"
#include "syntax/parser.h"
#include "tools/shape_run.h"

namespace spl {

int run_check(const std::vector<std::string>& files, const HostOptions& options, bool unknown) {
    const std::vector<std::string>& lib_roots = options.lib_roots;
    SourceManager sources;
    int status = 0;
    for (const std::string& path : files) {
        const SourceFile* file = sources.load(path);
        if (!file) {
            std::fprintf(stderr, "splrun check: cannot read %s\n", path.c_str());
            status = 2;
            continue;
        }
        try {
            std::unique_ptr<ast::Module> m = parse_module(*file);
            CalleeTypes callees([&](const std::vector<std::string>& use_path, const std::string& importer) {
                return find_module_file(use_path, importer, lib_roots);
            });
            callees.read_imports(*m);
            for (const Finding& f : check_module(*m, callees))
                std::printf("%s: warning: %s\n", f.loc.str().c_str(), f.message.c_str());
        } catch (const ProgramError& e) {
            std::fflush(stdout);
            std::fputs(format_error(e).c_str(), stderr);
            if (status == 0) status = 1;
            continue; // a file that does not parse is not run
        }
        const ShapeRunResult shapes = run_for_shapes(path, options);
        for (const ShapeFinding& f : shapes.findings)
            std::printf("%s: shape error: %s\n", f.where.c_str(), f.message.c_str());
        if (!shapes.findings.empty() && status == 0) status = 1;
        if (unknown)
            for (const std::string& u : shapes.unknown)
                std::fprintf(stderr, "note: the shapes-only run of %s stopped (not checked past it): %s\n",
                             path.c_str(), u.c_str());
    }
    std::fflush(stdout);
    return status;
}

} // namespace spl
