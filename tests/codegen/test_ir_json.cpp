// The JSON IR: documented shape, lossless round trip, deterministic dumps.
#include <doctest/doctest.h>

#include "frontend/yaml_frontend.h"
#include "model/ir_json.h"
#include "model/parse.h"
#include "test_inputs.h"

using namespace codegen;

namespace {

OperatorSet load() {
    return load_native_functions(test_inputs::native_functions_yaml(), test_inputs::tags_yaml(), "2.15.0");
}

} // namespace

TEST_CASE("IR JSON round trip: to_json -> from_json -> to_json is the identity") {
    const OperatorSet set = load();
    const auto first = to_json(set);
    const OperatorSet back = from_json(first);
    REQUIRE(back.operators.size() == set.operators.size());
    CHECK(to_json(back).dump(1) == first.dump(1));
    // Also through a reader that does not keep key order.
    CHECK(to_json(from_json(nlohmann::json::parse(first.dump()))).dump() == first.dump());
}

TEST_CASE("IR JSON is deterministic: two loads dump byte-identical text") {
    CHECK(to_json(load()).dump(2) == to_json(load()).dump(2));
}

TEST_CASE("IR JSON has the documented keys in the documented order") {
    OperatorSet set;
    set.libtorch_version = "2.15.0";
    set.source = "native_functions.yaml";
    Operator op;
    op.schema = parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "x:1");
    op.variants = {"function", "method"};
    op.tags = {"core", "pointwise"};
    op.origin = "native_functions.yaml:541";
    set.operators.push_back(op);

    const std::string expected =
        R"({"ir_version":1,"libtorch_version":"2.15.0","source":"native_functions.yaml","operators":[)"
        R"({"name":"add","overload":"Tensor","schema":"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",)"
        R"("kind":"functional","variants":["function","method"],"tags":["core","pointwise"],"autogen":false,)"
        R"("origin":"native_functions.yaml:541","arguments":[)"
        R"({"name":"self","type":"Tensor","kwarg_only":false,"out":false,"default":null},)"
        R"({"name":"other","type":"Tensor","kwarg_only":false,"out":false,"default":null},)"
        R"({"name":"alpha","type":"Scalar","kwarg_only":true,"out":false,"default":"1"}],)"
        R"("returns":[{"name":null,"type":"Tensor"}]}]})";
    CHECK(to_json(set).dump() == expected);
}

TEST_CASE("IR types carry alias annotations and re-parse") {
    OperatorSet set;
    Operator op;
    op.schema = parse_schema("max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
                             "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
                             "x:1");
    op.variants = {"function"};
    set.operators.push_back(op);
    const auto j = to_json(set)["operators"][0];
    CHECK(j["kind"] == "out");
    CHECK(j["arguments"][3]["type"] == "Tensor(a!)");
    CHECK(j["arguments"][3]["out"] == true);
    CHECK(j["returns"][1]["name"] == "indices");
    CHECK(parse_type(j["returns"][1]["type"].get<std::string>()).alias->is_write);
}

TEST_CASE("from_json rejects an IR whose fields contradict its schema") {
    OperatorSet set;
    Operator op;
    op.schema = parse_schema("relu(Tensor self) -> Tensor", "x:1");
    op.variants = {"function"};
    op.origin = "native_functions.yaml:9";
    set.operators.push_back(op);
    auto j = to_json(set);
    j["operators"][0]["kind"] = "inplace";
    CHECK_THROWS_WITH_AS(from_json(j), doctest::Contains("native_functions.yaml:9"), std::runtime_error);
    j["ir_version"] = 2;
    CHECK_THROWS_AS(from_json(j), std::runtime_error);
}
