// Locates the pinned torch's operator sources for the generator tests.
#include "test_inputs.h"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace test_inputs {

std::string required_path(const char* env_var) {
    const char* value = std::getenv(env_var);
    const std::string path = value ? value : "";
    const std::string name = env_var;
    INFO("environment variable ", name, " = '", path, "' (set by tests/codegen/meson.build)");
    REQUIRE_MESSAGE((!path.empty() && std::filesystem::exists(path)), "missing input: ", name);
    return path;
}

std::string native_functions_yaml() { return required_path("SPL_NATIVE_FUNCTIONS_YAML"); }
std::string tags_yaml() { return required_path("SPL_TAGS_YAML"); }
std::string aten_ops_dir() { return required_path("SPL_ATEN_OPS_DIR"); }

std::vector<FuncLine> yaml_func_lines(const std::string& path) {
    std::vector<FuncLine> out;
    for (const YAML::Node& entry : YAML::LoadFile(path))
        out.push_back({entry["func"].as<std::string>(), entry.Mark().line + 1});
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

namespace {

// The body of a C string literal starting after its opening quote; only
// the escapes torchgen emits (\" \\ \n \t) are expected.
std::string c_string_literal(const std::string& text, size_t pos) {
    std::string out;
    while (pos < text.size() && text[pos] != '"') {
        char c = text[pos++];
        if (c == '\\' && pos < text.size()) {
            const char e = text[pos++];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        }
        out += c;
    }
    return out;
}

} // namespace

std::vector<std::string> header_schema_strings(const std::string& dir) {
    static const std::string marker = "schema_str = \"";
    std::vector<std::string> out;
    for (const auto& file : std::filesystem::directory_iterator(dir)) {
        const std::string name = file.path().filename().string();
        if (name.size() < 6 || name.substr(name.size() - 6) != "_ops.h") continue;
        const std::string text = read_file(file.path().string());
        for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1))
            out.push_back(c_string_literal(text, at + marker.size()));
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace test_inputs
