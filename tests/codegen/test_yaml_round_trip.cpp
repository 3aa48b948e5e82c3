// Every schema of the pinned torch (the `func:` lines of native_functions.yaml
// and the schema_str of the headers) parses and prints back to exactly its
// original text.
#include <doctest/doctest.h>

#include "model/parse.h"
#include "test_inputs.h"

TEST_CASE("every func: of native_functions.yaml round-trips through parse and print") {
    const std::string path = test_inputs::native_functions_yaml();
    const auto funcs = test_inputs::yaml_func_lines(path);
    REQUIRE(funcs.size() > 2000);

    size_t round_tripped = 0;
    for (const auto& f : funcs) {
        const std::string origin = "native_functions.yaml:" + std::to_string(f.line);
        INFO(origin);
        codegen::FunctionSchema s;
        REQUIRE_NOTHROW(s = codegen::parse_schema(f.text, origin));
        CHECK(s.str() == f.text);
        if (s.str() == f.text) ++round_tripped;
    }
    MESSAGE("native_functions.yaml schemas round-tripped: ", round_tripped, " of ", funcs.size());
    CHECK(round_tripped == funcs.size());
}

TEST_CASE("every type of native_functions.yaml round-trips through parse_type") {
    const auto funcs = test_inputs::yaml_func_lines(test_inputs::native_functions_yaml());
    size_t types = 0;
    for (const auto& f : funcs) {
        const auto s = codegen::parse_schema(f.text, "native_functions.yaml:" + std::to_string(f.line));
        for (const auto& a : s.arguments) {
            CHECK(codegen::parse_type(a.type.str()).str() == a.type.str());
            ++types;
        }
        for (const auto& r : s.returns) CHECK(codegen::parse_type(r.type.str()).str() == r.type.str());
    }
    CHECK(types > 5000);
}

TEST_CASE("every schema_str of ATen/ops/*_ops.h round-trips through parse and print") {
    const auto schemas = test_inputs::header_schema_strings(test_inputs::aten_ops_dir());
    REQUIRE(schemas.size() > 2000);
    size_t round_tripped = 0;
    for (const std::string& text : schemas) {
        INFO(text);
        codegen::FunctionSchema s;
        REQUIRE_NOTHROW(s = codegen::parse_schema(text, "header"));
        CHECK(s.str() == text);
        round_tripped += s.str() == text;
    }
    MESSAGE("header schema_str round-tripped: ", round_tripped, " of ", schemas.size());
}
