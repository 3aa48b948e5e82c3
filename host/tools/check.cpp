// check.cpp — `splrun check`: parse each file and run the static checks on it.
#include "tools/check.h"

#include <cstdio>

#include "base/diagnostics.h"
#include "base/source.h"
#include "eval/module_loader.h"
#include "resolve/checks/checks.h"
#include "syntax/parser.h"

namespace spl {

int run_check(const std::vector<std::string>& files, const std::vector<std::string>& lib_roots) {
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
        }
    }
    std::fflush(stdout);
    return status;
}

} // namespace spl
