// Front-end: an installed LibTorch's headers -> the same IR as the YAML front-end.
#include "frontend/header_frontend.h"

#include "frontend/clang_unit.h"
#include "frontend/header_facts.h"
#include "model/parse.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace codegen {

namespace {

// Everything the C++ API is made of, in one unit so that libclang parses
// the shared headers (c10, libstdc++) once.
constexpr const char* umbrella_source = "#include <ATen/Operators.h>\n"       // every ATen/ops/*_ops.h
                                        "#include <ATen/core/TensorBody.h>\n" // at::Tensor's methods
                                        "#include <ATen/Functions.h>\n";      // the free functions (ATen/ops/<op>.h)

// libtorch/meson.build makes the same choice for the plugin.
std::string cpp_standard(const std::string& version) {
    int major = 0, minor = 0;
    if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2) return "c++20";
    return (major > 2 || (major == 2 && minor >= 10)) ? "c++20" : "c++17";
}

std::vector<std::string> compiler_args(const std::string& include_dir, const std::string& version) {
    return {"-x",
            "c++",
            "-std=" + cpp_standard(version),
            "-w",
            "-I" + include_dir,
            "-I" + include_dir + "/torch/csrc/api/include"};
}

std::string origin_of(const OpsStruct& op, const std::string& include_dir) {
    std::string path = op.file;
    if (path.rfind(include_dir + "/", 0) == 0) path = path.substr(include_dir.size() + 1);
    return "header:" + path + ":" + std::to_string(op.line);
}

// Which C++ API variants call the operator's struct. Operators that
// torchgen leaves to hand-written C++ (manual_cpp_binding: `is_leaf`,
// `size.int`) still get a generated `__dispatch_<name>` caller, so every
// variant the YAML names has a caller to be found.
std::vector<std::string> variants_of(const OpsStruct& op, const HeaderFacts& facts) {
    std::vector<std::string> variants;
    if (facts.called_by_functions.count(op.struct_name)) variants.push_back("function");
    if (facts.called_by_methods.count(op.struct_name)) variants.push_back("method");
    return variants;
}

Operator make_operator(const OpsStruct& op, const HeaderFacts& facts, const std::string& include_dir) {
    Operator out;
    out.origin = origin_of(op, include_dir);
    out.schema = parse_schema(op.schema_str, out.origin);
    if (op.name != "aten::" + out.schema.name || op.overload_name != out.schema.overload_name)
        throw std::runtime_error(out.origin + ": at::_ops::" + op.struct_name + " names " + op.name + "." +
                                 op.overload_name + " but its schema_str is " + out.schema.qualified_name());
    out.variants = variants_of(op, facts);
    return out;
}

void sort_and_check_unique(std::vector<Operator>& ops) {
    std::sort(ops.begin(), ops.end(), [](const Operator& a, const Operator& b) {
        return std::tie(a.schema.name, a.schema.overload_name) < std::tie(b.schema.name, b.schema.overload_name);
    });
    for (size_t i = 1; i < ops.size(); ++i)
        if (ops[i].schema.qualified_name() == ops[i - 1].schema.qualified_name())
            throw std::runtime_error(ops[i].origin + ": " + ops[i].schema.qualified_name() +
                                     " is defined twice (also at " + ops[i - 1].origin + ")");
}

} // namespace

std::string header_libtorch_version(const std::string& include_dir) {
    for (const char* header : {"torch/headeronly/version.h", "torch/csrc/api/include/torch/version.h"}) {
        std::ifstream in(include_dir + "/" + header);
        if (!in) continue;
        std::ostringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        std::string version;
        for (const char* part : {"MAJOR", "MINOR", "PATCH"}) {
            std::smatch m;
            if (!std::regex_search(s, m, std::regex(std::string("#define TORCH_VERSION_") + part + " (\\d+)"))) break;
            version += (version.empty() ? "" : ".") + m[1].str();
        }
        if (std::count(version.begin(), version.end(), '.') == 2) return version;
    }
    return "";
}

OperatorSet scan_headers(const std::string& include_dir_arg, const std::string& libtorch_version) {
    std::string include_dir = std::filesystem::path(include_dir_arg).lexically_normal().string();
    while (include_dir.size() > 1 && include_dir.back() == '/') include_dir.pop_back();
    if (!std::filesystem::exists(include_dir + "/ATen/Operators.h"))
        throw std::runtime_error(include_dir + " has no ATen/Operators.h: not a LibTorch include directory");

    OperatorSet set;
    set.libtorch_version = libtorch_version.empty() ? header_libtorch_version(include_dir) : libtorch_version;
    set.source = "headers";
    const clang::Unit unit("spl_torch_header_scan.cpp", umbrella_source,
                           compiler_args(include_dir, set.libtorch_version));
    const HeaderFacts facts = read_header_facts(unit);
    if (facts.ops.empty()) throw std::runtime_error(include_dir + ": no at::_ops operator structs found");
    set.operators.reserve(facts.ops.size());
    for (const OpsStruct& op : facts.ops) set.operators.push_back(make_operator(op, facts, include_dir));
    sort_and_check_unique(set.operators);
    return set;
}

} // namespace codegen
