// Finds which LibTorch the process loaded, so the plugin can refuse another one.
#include "core/loaded_version.h"

#include <ATen/ops/add_ops.h>

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <cctype>
#include <sstream>
#include <string_view>

namespace spl {
namespace {

// The digits of `s` from `at`, or "" when none start there.
std::string_view digits_at(std::string_view s, size_t at) {
    size_t end = at;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    return s.substr(at, end - at);
}

// The first "N.N.N" in the file and what follows it up to a space or quote ("2.15.0+cu132"),
// or "". A scan rather than <regex>, which alone took a quarter of the plugin's compile time
// spent on this file.
std::string first_version_in(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return "";
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (size_t at = 0; at < s.size(); ++at) {
        if (at > 0 && std::isdigit(static_cast<unsigned char>(s[at - 1]))) continue; // inside a number
        size_t end = at;
        int parts = 0;
        for (; parts < 3; ++parts) {
            const std::string_view number = digits_at(s, end);
            if (number.empty()) break;
            end += number.size();
            if (parts < 2) {
                if (end >= s.size() || s[end] != '.') break;
                ++end;
            }
        }
        if (parts < 3) continue;
        while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) && s[end] != '\'' && s[end] != '"')
            ++end;
        return s.substr(at, end - at);
    }
    return "";
}

} // namespace

std::string release_of(const std::string& version) { return version.substr(0, version.find('+')); }

std::string loaded_libtorch_path() {
    Dl_info info{};
    // Any function of libtorch_cpu tells where it was loaded from.
    if (!dladdr(reinterpret_cast<void*>(&at::_ops::add_Tensor::call), &info) || !info.dli_fname) return "";
    std::error_code error;
    const auto library = std::filesystem::canonical(info.dli_fname, error);
    return error ? "" : library.string();
}

std::string loaded_libtorch_version() {
    const std::string path = loaded_libtorch_path();
    if (path.empty()) return "";
    const std::filesystem::path library(path);
    const std::string name = library.filename().string();
    if (const auto at = name.find(".so."); at != std::string::npos) return name.substr(at + 4);
    const auto root = library.parent_path().parent_path();
    for (const auto& file : {root / "build-version", root / "version.py"})
        if (std::string v = first_version_in(file); !v.empty()) return v;
    return "";
}

} // namespace spl
