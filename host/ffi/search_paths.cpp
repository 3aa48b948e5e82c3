// Where splrun looks for library roots and plugins (search_paths.h).
#include "ffi/search_paths.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace spl {

namespace {

std::vector<std::string> split_path(const char* value) {
    std::vector<std::string> out;
    if (!value) return out;
    const std::string s(value);
    size_t start = 0;
    while (start <= s.size()) {
        size_t colon = s.find(':', start);
        if (colon == std::string::npos) colon = s.size();
        if (colon > start) out.push_back(s.substr(start, colon - start));
        start = colon + 1;
    }
    return out;
}

} // namespace

std::string executable_dir() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return ".";
    const std::string path(buf, static_cast<size_t>(n));
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

bool is_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string real_path(const std::string& path) {
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

SearchPaths search_paths(const std::vector<std::string>& cli_lib_roots, bool word_lib) {
    const std::string exe = executable_dir();
    SearchPaths paths;
    paths.lib_roots = cli_lib_roots;
    for (const std::string& d : split_path(std::getenv("SIMPLE_LIB"))) paths.lib_roots.push_back(d);
    if (paths.lib_roots.empty())
        paths.lib_roots.push_back(exe + "/" + (word_lib ? SPLRUN_WORD_LIB_FROM_BIN : SPLRUN_LIB_FROM_BIN));

    paths.plugin_dirs = split_path(std::getenv("SIMPLE_SFFI_PATH"));
    // the build tree's plugins (splrun in <build>/host; libspl_python.so builds in a folder of its
    // own), then the installed ones
    for (const std::string& d :
         {exe + "/../runtime_plugin", exe + "/../runtime_plugin/python", exe + "/" SPLRUN_PLUGINS_FROM_BIN})
        paths.plugin_dirs.push_back(d);
    return paths;
}

} // namespace spl
