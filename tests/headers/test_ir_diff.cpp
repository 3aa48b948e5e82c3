// `torch-codegen diff` on small IRs with one operator added, one removed and
// one changed in every way an argument can change.
#include <doctest/doctest.h>

#include "diff/diff_report.h"
#include "model/parse.h"

using namespace codegen;

namespace {

OperatorSet ir(const std::string& version, const std::vector<std::string>& schemas) {
    OperatorSet set;
    set.libtorch_version = version;
    set.source = "test";
    for (const auto& s : schemas) {
        Operator op;
        op.origin = "test:" + s;
        op.schema = parse_schema(s, op.origin);
        op.variants = {"function"};
        set.operators.push_back(std::move(op));
    }
    return set;
}

const OperatorSet old_ir =
    ir("1.0.0", {
                    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                    "gone_op(Tensor self) -> Tensor",
                    "reshaped(Tensor self, int dim=0, bool keep=False, float scale=1.0, int a=0, int b=0) -> Tensor",
                });
const OperatorSet new_ir = ir(
    "2.0.0",
    {
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "new_op.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)",
        "reshaped(Tensor input, SymInt dim=1, int a=0, int b=0, *, bool keep=False, float eps=0.5) -> (Tensor, Tensor)",
    });

const diff::ArgumentChange* find_change(const diff::OperatorChange& c, const std::string& kind,
                                        const std::string& arg) {
    for (const auto& a : c.arguments)
        if (a.kind == kind && a.argument == arg) return &a;
    return nullptr;
}

} // namespace

TEST_CASE("the diff names added, removed and changed operators, argument by argument") {
    const diff::IrDiff d = diff::diff_irs(old_ir, new_ir, api::Policy{}, "");
    CHECK(d.operators.added == std::vector<std::string>{"new_op.out"});
    CHECK(d.operators.removed == std::vector<std::string>{"gone_op"});
    REQUIRE(d.operators.changed.size() == 1);
    const diff::OperatorChange& c = d.operators.changed[0];
    CHECK(c.op == "reshaped");
    CHECK(find_change(c, "renamed", "input"));
    CHECK(find_change(c, "type", "dim"));
    CHECK(find_change(c, "default", "dim"));
    CHECK(find_change(c, "kwarg_only", "keep"));
    CHECK(find_change(c, "removed", "scale"));
    CHECK(find_change(c, "added", "eps"));
    CHECK(find_change(c, "moved", "keep"));    // behind a and b now
    CHECK_FALSE(find_change(c, "moved", "a")); // shifted by the removal of scale: not a move
    CHECK(c.returns_changed);
    CHECK(c.old_returns == "Tensor");
    CHECK(c.new_returns == "(Tensor, Tensor)");
    CHECK(diff::summary_line(d) == "added 1, removed 1, changed 1");

    const std::string text = diff::text_report(d);
    for (const char* expected :
         {"1.0.0 (test, 3 operators) -> 2.0.0 (test, 3 operators)", "Operators added (1):\n  new_op.out",
          "Operators removed (1):\n  gone_op", "argument input: renamed from self", "argument dim: type int -> SymInt",
          "argument dim: default 0 -> 1", "argument keep: became keyword-only",
          "argument keep: moved from position 3 to 5", "argument scale: removed `float scale=1.0`",
          "argument eps: added `*, float eps=0.5`", "returns: Tensor -> (Tensor, Tensor)",
          "removed rt_torch_gone_op (gone_op)", "added rt_torch_new_op_out (new_op.out)",
          "changed rt_torch_reshaped (reshaped)", "\nadded 1, removed 1, changed 1\n"})
        CHECK_MESSAGE(text.find(expected) != std::string::npos, "missing from the text report: ", expected, "\n", text);
    CHECK(text.find("add.Tensor") == std::string::npos); // unchanged operators are not mentioned

    const nlohmann::ordered_json j = diff::json_report(d);
    CHECK(j["summary"]["added"] == 1);
    CHECK(j["summary"]["removed"] == 1);
    CHECK(j["summary"]["changed"] == 1);
    CHECK(j["operators"]["added"] == nlohmann::json::array({"new_op.out"}));
    CHECK(j["operators"]["removed"] == nlohmann::json::array({"gone_op"}));
    CHECK(j["operators"]["changed"][0]["operator"] == "reshaped");
    CHECK(j["operators"]["changed"][0]["returns"]["new"] == "(Tensor, Tensor)");
    CHECK(j["summary"]["declarations"]["removed"] == 1);
    CHECK(j["summary"]["declarations"]["added"] == 1);
    CHECK(j["summary"]["declarations"]["changed"] == 1);
    CHECK(j["library"].is_null());
    bool names_gone = false;
    for (const auto& decl : j["declarations"])
        names_gone |= decl["change"] == "removed" && decl["entry_point"] == "rt_torch_gone_op" &&
                      decl["old"] == "extern fn rt_torch_gone_op(self_: i64) -> i64" && decl["new"].is_null();
    CHECK(names_gone);
}

TEST_CASE("the diff reports an operator without a binding instead of failing") {
    // `Storage` is excluded by a policy; `Dimname[]` returned has no row in the type table.
    api::Policy policy;
    policy.excluded_types["Storage"] = "no handle type";
    const OperatorSet a =
        ir("1", {"set.source_Storage(Tensor self, Storage source) -> Tensor", "names(Tensor self) -> str[]"});
    const OperatorSet b = ir("2", {});
    const diff::IrDiff d = diff::diff_irs(a, b, policy, "");
    REQUIRE(d.declarations.no_binding.size() == 2);
    CHECK(d.declarations.no_binding[0].op == "set.source_Storage");
    CHECK(d.declarations.no_binding[0].reason.rfind("excluded by policy: Storage", 0) == 0);
    CHECK(d.declarations.no_binding[1].op == "names");
    CHECK(d.declarations.no_binding[1].reason.rfind("no binding: return type str[]", 0) == 0);
    CHECK(diff::text_report(d).find("old names: no binding: return type str[]") != std::string::npos);
}
