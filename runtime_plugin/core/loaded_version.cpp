// Finds which LibTorch the process loaded, so the plugin can refuse another one.
#include "core/loaded_version.h"

#include <ATen/ops/add_ops.h>

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace spl {
namespace {

std::string first_version_in(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return "";
    std::stringstream text;
    text << in.rdbuf();
    std::smatch match;
    const std::string s = text.str();
    static const std::regex version(R"((\d+\.\d+\.\d+)([^\s'"]*))");
    return std::regex_search(s, match, version) ? match.str(0) : "";
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
