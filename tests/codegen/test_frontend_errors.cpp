// The YAML front-end rejects bad input with the line it is on.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "frontend/yaml_frontend.h"
#include "model/parse.h"

using namespace codegen;

namespace {

// A small native_functions.yaml / tags.yaml pair in a scratch directory.
struct ScratchYaml {
    std::filesystem::path dir;
    ScratchYaml(const std::string& functions,
                const std::string& tags = "- tag: core\n- tag: generated\n- tag: pointwise\n") {
        dir = std::filesystem::temp_directory_path() /
              ("spl_codegen_test_" + std::to_string(reinterpret_cast<uintptr_t>(this)));
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "native_functions.yaml") << functions;
        std::ofstream(dir / "tags.yaml") << tags;
    }
    ~ScratchYaml() { std::filesystem::remove_all(dir); }
    OperatorSet load() const {
        return load_native_functions((dir / "native_functions.yaml").string(), (dir / "tags.yaml").string(), "test");
    }
    std::string error() const {
        try {
            load();
        } catch (const std::exception& e) {
            return e.what();
        }
        return "(no error)";
    }
};

} // namespace

TEST_CASE("a small YAML loads with variants, tags, origins and expansion") {
    const ScratchYaml y("- func: zeta(Tensor self) -> Tensor\n"
                        "  variants: method, function\n"
                        "  tags: [pointwise, core]\n"
                        "  dispatch:\n"
                        "    CPU, CUDA: zeta\n"
                        "\n"
                        "- func: alpha_(Tensor(a!) self, *, int n=1) -> Tensor(a!)\n"
                        "  dispatch:\n"
                        "    CPU: alpha_\n"
                        "  autogen: alpha, alpha.out\n");
    const OperatorSet set = y.load();
    REQUIRE(set.operators.size() == 4);
    CHECK(set.operators[0].schema.str() == "alpha(Tensor self, *, int n=1) -> Tensor");
    CHECK(set.operators[0].autogen);
    CHECK(set.operators[0].origin == "native_functions.yaml:7");
    CHECK(set.operators[1].schema.str() == "alpha.out(Tensor self, *, int n=1, Tensor(a!) out) -> Tensor(a!)");
    CHECK(set.operators[2].schema.qualified_name() == "alpha_");
    CHECK(set.operators[2].variants == std::vector<std::string>{"function"});
    CHECK(set.operators[3].schema.qualified_name() == "zeta");
    CHECK(set.operators[3].variants == std::vector<std::string>{"function", "method"});
    CHECK(set.operators[3].tags == std::vector<std::string>{"core", "pointwise"});
    CHECK(set.operators[3].origin == "native_functions.yaml:1");
}

TEST_CASE("out= variants of functional and mutable ops get fresh alias letters") {
    const ScratchYaml y("- func: pair(Tensor self) -> (Tensor a, Tensor b)\n"
                        "  dispatch:\n"
                        "    CPU: pair\n"
                        "  autogen: pair.out\n"
                        "- func: stats(Tensor self, Tensor(a!) running, int n) -> (Tensor, int)\n"
                        "  dispatch:\n"
                        "    CPU: stats\n"
                        "  autogen: stats_functional, stats.out\n");
    const OperatorSet set = y.load();
    std::vector<std::string> texts;
    for (const auto& op : set.operators) texts.push_back(op.schema.str());
    CHECK(texts == std::vector<std::string>{
                       "pair(Tensor self) -> (Tensor a, Tensor b)",
                       "pair.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
                       "stats(Tensor self, Tensor(a!) running, int n) -> (Tensor, int)",
                       "stats.out(Tensor self, Tensor(a!) running, int n, *, Tensor(b!) out0) -> int",
                       "stats_functional(Tensor self, Tensor running, int n) -> (Tensor, int, Tensor running_out)",
                   });
}

TEST_CASE("front-end errors name the line") {
    CHECK(ScratchYaml("- func: f(Tensor self) -> Tensor\n"
                      "- func: g(Tensor self) -> Tensor\n"
                      "  tags: nonsense\n")
              .error() == "native_functions.yaml:2: unknown tag 'nonsense' (not in tags.yaml)");
    CHECK(ScratchYaml("- func: f(Tensor self) -> Tensor\n"
                      "  variants: procedure\n")
              .error() == "native_functions.yaml:1: unknown variant 'procedure' (expected function or method)");
    CHECK(ScratchYaml("- func: f(Tensor self) -> Tensor\n\n"
                      "- func: f(Tensor self) -> Tensor\n")
              .error()
              .find("native_functions.yaml:3: ") == 0);
    const std::string bad_schema = ScratchYaml("- func: f(Tensor self -> Tensor\n").error();
    CHECK(bad_schema.find("native_functions.yaml:1:") == 0);
    CHECK(bad_schema.find("expected ',' or ')'") != std::string::npos);
    // torchgen generates the functional g here; it has to be asked for.
    CHECK(ScratchYaml("- func: g_(Tensor(a!) self) -> Tensor(a!)\n"
                      "  dispatch:\n"
                      "    CPU: g_\n"
                      "- func: g.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  dispatch:\n"
                      "    CPU: g_out\n")
              .error() ==
          "native_functions.yaml:1: torchgen generates g from this entry; it must be listed under `autogen:`");
    // ...and asking for what is not generated is an error too.
    CHECK(ScratchYaml("- func: h(Tensor self) -> Tensor\n"
                      "  dispatch:\n"
                      "    CPU: h\n"
                      "  autogen: h.other_out\n"
                      "- func: h.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  dispatch:\n"
                      "    CPU: h_out\n")
              .error()
              .find("native_functions.yaml:1: `autogen:` lists h.other_out but") == 0);
}
