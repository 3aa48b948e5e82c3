// Both front-ends read the same (pinned) LibTorch: they must yield the same
// operators, schemas and variants, except where
// schema/frontend_differences.json says why not. The file is checked too:
// an entry for a difference that no longer occurs fails the test.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "frontend/header_frontend.h"
#include "frontend/yaml_frontend.h"
#include "frontend_comparison.h"
#include "header_test_inputs.h"

using namespace codegen;
namespace inputs = header_test_inputs;

namespace {

nlohmann::json load_listed_differences() {
    const std::string path = inputs::frontend_differences();
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot read SPL_FRONTEND_DIFFERENCES = '", path, "'");
    return nlohmann::json::parse(in);
}

std::string key(const std::string& op, const std::string& field) { return op + " [" + field + "]"; }

} // namespace

TEST_CASE("the header front-end agrees with the YAML front-end on the pinned LibTorch") {
    if (inputs::native_functions_yaml().empty()) {
        MESSAGE("skipped: the configured LibTorch (", inputs::libtorch_include(),
                ") ships no native_functions.yaml to compare the header scan with");
        return;
    }
    const OperatorSet yaml =
        load_native_functions(inputs::native_functions_yaml(), inputs::tags_yaml(), inputs::libtorch_version());
    const auto start = std::chrono::steady_clock::now();
    const OperatorSet headers = scan_headers(inputs::libtorch_include(), inputs::libtorch_version());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const frontend_comparison::Comparison found = frontend_comparison::compare(yaml, headers);
    const nlohmann::json listed = load_listed_differences();

    // Operator by operator: every difference found is listed, with the same
    // values, and every listed difference is found.
    std::map<std::string, nlohmann::json> listed_by_key;
    for (const auto& entry : listed.at("differences")) {
        CHECK_MESSAGE(!entry.value("reason", "").empty(), "listed difference without a reason: ", entry.dump());
        listed_by_key[key(entry.at("operator"), entry.at("field"))] = entry;
    }
    std::set<std::string> found_keys;
    for (const auto& d : found.differences) {
        const std::string k = key(d.op, d.field);
        found_keys.insert(k);
        const auto it = listed_by_key.find(k);
        CHECK_MESSAGE(it != listed_by_key.end(), "unlisted difference ", k, ": yaml ", d.yaml.dump(), ", headers ",
                      d.headers.dump(), " (explain it in schema/frontend_differences.json or fix the front-end)");
        if (it != listed_by_key.end())
            CHECK_MESSAGE((it->second.at("yaml") == d.yaml && it->second.at("headers") == d.headers),
                          "listed difference ", k, " has changed: now yaml ", d.yaml.dump(), ", headers ",
                          d.headers.dump());
    }
    for (const auto& [k, entry] : listed_by_key)
        CHECK_MESSAGE(found_keys.count(k), "listed difference ", k,
                      " no longer occurs: remove it from schema/frontend_differences.json");

    // Whole fields headers cannot know: listed once each, still differing.
    std::set<std::string> listed_fields;
    for (const auto& entry : listed.at("fields_not_compared")) {
        const std::string field = entry.at("field");
        listed_fields.insert(field);
        CHECK_MESSAGE(!entry.value("reason", "").empty(), "field ", field, " is listed without a reason");
        const auto& known = frontend_comparison::fields_not_compared();
        REQUIRE_MESSAGE(std::find(known.begin(), known.end(), field) != known.end(), "fields_not_compared lists '",
                        field, "', which the test compares operator by operator");
        CHECK_MESSAGE(frontend_comparison::field_differs(field, yaml, headers), "field ", field,
                      " no longer differs between the front-ends: remove it from fields_not_compared");
    }
    for (const std::string& field : frontend_comparison::fields_not_compared())
        if (frontend_comparison::field_differs(field, yaml, headers))
            CHECK_MESSAGE(listed_fields.count(field), "field ", field, " differs but is not in fields_not_compared");

    char line[200];
    std::snprintf(line, sizeof line,
                  "header scan: %.1f s; front-ends agree on %zu of %zu operators (%zu listed differences)", seconds,
                  found.agreeing, found.total, found.differences.size());
    MESSAGE(line);
    CHECK(headers.source == "headers");
    CHECK(headers.libtorch_version == yaml.libtorch_version);
}
