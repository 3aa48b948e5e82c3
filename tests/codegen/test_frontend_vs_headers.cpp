// The YAML front-end, autogen expansion included, yields exactly the
// operators the pinned LibTorch was built with (its ATen/ops/*_ops.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "frontend/yaml_frontend.h"
#include "model/parse.h"
#include "test_inputs.h"

using namespace codegen;

namespace {

std::string join_lines(const std::vector<std::string>& lines, size_t limit) {
    std::string out;
    for (size_t i = 0; i < lines.size() && i < limit; ++i) out += "\n  " + lines[i];
    if (lines.size() > limit) out += "\n  ... and " + std::to_string(lines.size() - limit) + " more";
    return out;
}

} // namespace

TEST_CASE("the YAML operator set equals the schema_str set of the headers") {
    const auto start = std::chrono::steady_clock::now();
    const OperatorSet set =
        load_native_functions(test_inputs::native_functions_yaml(), test_inputs::tags_yaml(), "test");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<std::string> from_yaml;
    size_t autogen = 0;
    for (const Operator& op : set.operators) {
        from_yaml.push_back(op.schema.str());
        autogen += op.autogen;
    }
    std::sort(from_yaml.begin(), from_yaml.end());
    const std::vector<std::string> from_headers = test_inputs::header_schema_strings(test_inputs::aten_ops_dir());

    std::vector<std::string> only_yaml, only_headers;
    std::set_difference(from_yaml.begin(), from_yaml.end(), from_headers.begin(), from_headers.end(),
                        std::back_inserter(only_yaml));
    std::set_difference(from_headers.begin(), from_headers.end(), from_yaml.begin(), from_yaml.end(),
                        std::back_inserter(only_headers));
    MESSAGE("operators: ", from_yaml.size(), " from native_functions.yaml (", autogen, " from autogen:), ",
            from_headers.size(), " schema_str in the headers; load took ", seconds, " s");
    CHECK_MESSAGE(only_yaml.empty(), "only in the YAML set:", join_lines(only_yaml, 40));
    CHECK_MESSAGE(only_headers.empty(), "only in the headers:", join_lines(only_headers, 40));
    CHECK(from_yaml.size() == from_headers.size());
}

TEST_CASE("the YAML operator set is sorted, unique and well-formed") {
    const OperatorSet set =
        load_native_functions(test_inputs::native_functions_yaml(), test_inputs::tags_yaml(), "2.15.0");
    CHECK(set.libtorch_version == "2.15.0");
    CHECK(set.source == "native_functions.yaml");
    for (size_t i = 0; i < set.operators.size(); ++i) {
        const Operator& op = set.operators[i];
        INFO(op.schema.qualified_name(), " at ", op.origin);
        CHECK(op.origin.rfind("native_functions.yaml:", 0) == 0);
        CHECK(std::is_sorted(op.variants.begin(), op.variants.end()));
        CHECK(std::is_sorted(op.tags.begin(), op.tags.end()));
        CHECK_FALSE(op.variants.empty());
        if (i > 0) {
            const auto& prev = set.operators[i - 1].schema;
            CHECK(std::make_pair(prev.name, prev.overload_name) <
                  std::make_pair(op.schema.name, op.schema.overload_name));
        }
        // What was printed parses back to the same text.
        CHECK(parse_schema(op.schema.str(), op.origin).str() == op.schema.str());
    }
}

TEST_CASE("known operators come out as torchgen makes them") {
    const OperatorSet set =
        load_native_functions(test_inputs::native_functions_yaml(), test_inputs::tags_yaml(), "test");
    auto find = [&](const std::string& qualified) -> const Operator* {
        for (const Operator& op : set.operators)
            if (op.schema.qualified_name() == qualified) return &op;
        return nullptr;
    };
    const Operator* add = find("add.Tensor");
    REQUIRE(add);
    CHECK(add->variants == std::vector<std::string>{"function", "method"});
    CHECK(add->tags == std::vector<std::string>{"core", "pointwise"});
    CHECK_FALSE(add->autogen);
    CHECK(add->schema.kind() == SchemaKind::functional);

    // An out= variant generated from an in-place op: self loses its alias,
    // `out` takes it, and the return still aliases it.
    const Operator* float_out = find("bernoulli.float_out");
    REQUIRE(float_out);
    CHECK(float_out->autogen);
    CHECK(float_out->variants == std::vector<std::string>{"function"});
    CHECK(float_out->schema.str() ==
          "bernoulli.float_out(Tensor self, float p=0.5, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)");
    CHECK(std::count(float_out->tags.begin(), float_out->tags.end(), "generated") == 1);
    // bernoulli.p groups with bernoulli_.float (torchgen's special case), so
    // no functional bernoulli.float is invented.
    CHECK(find("bernoulli.float") == nullptr);
}
