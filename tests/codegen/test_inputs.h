// Where the pinned torch's operator sources are, as meson passes them
// (environment variables set in tests/codegen/meson.build), and readers
// for them that do not go through the code under test.
#pragma once

#include <string>
#include <vector>

namespace test_inputs {

// The value of an environment variable naming an existing path; fails the
// current test case (with the variable's name) when it is unset or wrong.
std::string required_path(const char* env_var);

std::string native_functions_yaml(); // SPL_NATIVE_FUNCTIONS_YAML
std::string tags_yaml();             // SPL_TAGS_YAML
std::string aten_ops_dir();          // SPL_ATEN_OPS_DIR: torch/include/ATen/ops

struct FuncLine {
    std::string text; // the `func:` value
    int line;         // 1-based
};
// Every `func:` of native_functions.yaml, in file order.
std::vector<FuncLine> yaml_func_lines(const std::string& path);

// Every `schema_str` literal of <dir>/*_ops.h, unescaped, sorted.
std::vector<std::string> header_schema_strings(const std::string& dir);

std::string read_file(const std::string& path);

} // namespace test_inputs
