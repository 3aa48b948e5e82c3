// The header front-end on Debian's libtorch-dev (LibTorch 1.13.1 in
// /usr/include), which ships no native_functions.yaml: the scan is the only
// way to its operator set. Skipped where that package is not installed.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/c_string_literal.h"
#include "frontend/header_frontend.h"
#include "header_test_inputs.h"
#include "model/parse.h"

using namespace codegen;

namespace {

// Every schema_str literal of <include>/ATen/ops/*_ops.h, read as text
// (1.13 writes `STATIC_CONSTEXPR_STR_INL_EXCEPT_WIN_CUDA(schema_str, "...")`,
// 2.x `schema_str = "..."`), sorted: an account independent of libclang.
std::vector<std::string> schema_literals(const std::string& include_dir) {
    std::vector<std::string> out;
    for (const auto& file : std::filesystem::directory_iterator(include_dir + "/ATen/ops")) {
        const std::string name = file.path().filename().string();
        if (name.size() < 6 || name.substr(name.size() - 6) != "_ops.h") continue;
        std::ifstream in(file.path());
        std::ostringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        for (size_t at = s.find("schema_str"); at != std::string::npos; at = s.find("schema_str", at + 1)) {
            const size_t open = s.find('"', at);
            size_t close = open + 1;
            while (close < s.size() && s[close] != '"') close += s[close] == '\\' ? 2 : 1;
            out.push_back(c_string_literal_value(std::string_view(s).substr(open, close + 1 - open)));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("the header front-end reads Debian's LibTorch 1.13 headers") {
    const std::string include = header_test_inputs::debian_include();
    if (include.empty() || !std::filesystem::is_directory(include + "/ATen/ops")) {
        MESSAGE("skipped: no ", (include.empty() ? std::string("/usr/include") : include),
                "/ATen/ops (Debian's libtorch-dev is not installed)");
        return;
    }
    const std::string version = header_libtorch_version(include);
    const auto start = std::chrono::steady_clock::now();
    const OperatorSet set = scan_headers(include, version);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const std::vector<std::string> literals = schema_literals(include);
    std::vector<std::string> scanned;
    for (const Operator& op : set.operators) {
        scanned.push_back(op.schema.str());
        INFO(op.schema.qualified_name(), " at ", op.origin);
        CHECK(op.origin.rfind("header:ATen/ops/", 0) == 0);
        CHECK_FALSE(op.variants.empty());
        CHECK(parse_schema(op.schema.str(), op.origin).str() == op.schema.str());
    }
    std::sort(scanned.begin(), scanned.end());

    char line[160];
    std::snprintf(line, sizeof line,
                  "LibTorch %s in %s: %zu operators scanned in %.1f s; %zu schema_str in ATen/ops/*_ops.h",
                  version.c_str(), include.c_str(), set.operators.size(), seconds, literals.size());
    MESSAGE(line);
    CHECK(set.operators.size() == literals.size());
    CHECK(scanned == literals); // printed canonically, each schema reads as LibTorch wrote it
    CHECK(set.libtorch_version == version);
}
