// Hand-picked schemas for each feature of the grammar, and malformed ones
// whose error must say where and what.
#include <doctest/doctest.h>

#include "model/parse.h"

using namespace codegen;

namespace {

FunctionSchema parse(const std::string& text) { return parse_schema(text, "test.yaml:42"); }

// The message of the SchemaError that parsing `text` throws.
std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("tricky schemas print back exactly") {
    const char* schemas[] = {
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
        "(Tensor(a!) values, Tensor(b!) indices)",
        "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
        "_foreach_add.Scalar_out(Tensor[] self, Scalar scalar, *, Tensor(a!)[] out) -> ()",
        "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
        "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "f(Tensor(a! -> a|b) x) -> Tensor(a|b)",
        "f(Tensor(b!)[] xs) -> Tensor(b!)[]",
        "f(Tensor(a)? x) -> Tensor(a)?",
        "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool "
        "ceil_mode=False) -> Tensor",
        "f(bool[3] mask, SymInt[] size, SymInt[1]? dim=None, int[]? opt=None, float[]? scales=None) -> (Tensor, "
        "Tensor, Tensor[])",
        "linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
        "-> Tensor",
        "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
        "pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
        "f(float a=-inf, float b=inf, float c=1e-05, ScalarType d=long, MemoryFormat e=contiguous_format, str "
        "f=\"mean\", str g='x', int[] h=[0,1], int[] i=[], Tensor? j=None, bool k=True, int l=-1, float m=0.5, int "
        "n=Mean, int[2] o=[-2,-1]) -> Tensor",
        "_test_string_default(Tensor dummy, str a=\"\\\"'\\\\\", str b='\"\\'\\\\') -> Tensor",
        "_assert_async(Tensor self) -> ()",
        "f(Tensor a) -> (Tensor)",
        "f(Tensor a) -> Tensor out",
        "f() -> int",
        "f(__torch__.torch.classes.quantized.Conv2dPackedParamsBase packed) -> Tensor",
        "f(Generator? generator=None, Storage s, Stream st, Device? d=None, Layout l, QScheme q, DeviceIndex i, "
        "SymBool b, GraphModule g, DimVector v) -> str",
    };
    for (const char* text : schemas) {
        INFO(text);
        CHECK(parse(text).str() == text);
    }
}

TEST_CASE("whitespace between tokens is normalised to torchgen spacing") {
    CHECK(parse("  add.Tensor( Tensor self ,Tensor other,*,Scalar alpha=1 )->Tensor ").str() ==
          "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    CHECK(parse("f(Tensor(a ->  *) self) -> ( Tensor(a) x , int y )").str() ==
          "f(Tensor(a -> *) self) -> (Tensor(a) x, int y)");
}

TEST_CASE("the model records each grammar feature") {
    SUBCASE("operator name and overload") {
        const auto s = parse("add.Tensor(Tensor self) -> Tensor");
        CHECK(s.name == "add");
        CHECK(s.overload_name == "Tensor");
        CHECK(s.qualified_name() == "add.Tensor");
        CHECK(parse("relu(Tensor self) -> Tensor").qualified_name() == "relu");
    }
    SUBCASE("keyword-only and out arguments") {
        const auto s = parse("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
        REQUIRE(s.arguments.size() == 4);
        CHECK_FALSE(s.arguments[1].kwarg_only);
        CHECK(s.arguments[2].kwarg_only);
        CHECK_FALSE(s.arguments[2].is_out);
        CHECK(s.arguments[2].default_value == std::optional<std::string>("1"));
        CHECK(s.arguments[3].is_out);
        CHECK_FALSE(s.returns_tuple_syntax);
    }
    SUBCASE("alias annotations") {
        const auto s = parse("f(Tensor(a! -> a|b) x, Tensor(a -> *) y, Tensor(b!)[] z) -> Tensor(a|b)");
        const Alias& x = *s.arguments[0].type.alias;
        CHECK(x.before_set == std::vector<std::string>{"a"});
        CHECK(x.is_write);
        CHECK(x.has_arrow);
        CHECK(x.after_set == std::vector<std::string>{"a", "b"});
        CHECK(s.arguments[1].type.alias->after_set == std::vector<std::string>{"*"});
        CHECK_FALSE(s.arguments[1].type.alias->is_write);
        const Type& z = s.arguments[2].type;
        CHECK(z.is_list);
        CHECK(z.alias->is_write);
        CHECK(s.returns[0].type.alias->before_set == std::vector<std::string>{"a", "b"});
        CHECK_FALSE(s.returns[0].type.alias->has_arrow);
    }
    SUBCASE("optionals and lists") {
        const Type elem_opt = parse_type("Tensor?[]");
        CHECK((elem_opt.is_list && elem_opt.elem_optional && !elem_opt.optional));
        const Type list_opt = parse_type("int[]?");
        CHECK((list_opt.is_list && !list_opt.elem_optional && list_opt.optional));
        const Type sized = parse_type("int[2]");
        CHECK(sized.list_size == std::optional<int64_t>(2));
        CHECK_FALSE(parse_type("SymInt[]").list_size.has_value());
        const Type plain_opt = parse_type("Tensor(a)?");
        CHECK((plain_opt.optional && !plain_opt.is_list && plain_opt.alias));
        CHECK(parse_type("bool[3]").str() == "bool[3]");
    }
    SUBCASE("returns") {
        const auto named = parse("max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)");
        REQUIRE(named.returns.size() == 2);
        CHECK(named.returns[0].name == std::optional<std::string>("values"));
        CHECK(named.returns_tuple_syntax);
        const auto none = parse("f(Tensor self) -> ()");
        CHECK(none.returns.empty());
        const auto unnamed = parse("f(Tensor self) -> (Tensor, Tensor)");
        CHECK_FALSE(unnamed.returns[1].name.has_value());
    }
    SUBCASE("defaults keep their exact text") {
        const auto s =
            parse("f(int[] a=[0,1], str b=\"mean\", float c=1e-05, float d=-inf, int[2] e=[], str f='x') -> Tensor");
        const char* expected[] = {"[0,1]", "\"mean\"", "1e-05", "-inf", "[]", "'x'"};
        for (size_t i = 0; i < 6; ++i) CHECK(s.arguments[i].default_value == std::optional<std::string>(expected[i]));
    }
}

TEST_CASE("schema kinds follow torchgen") {
    CHECK(parse("add.Tensor(Tensor self, Tensor other) -> Tensor").kind() == SchemaKind::functional);
    CHECK(parse("add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)").kind() == SchemaKind::inplace);
    CHECK(parse("add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)").kind() == SchemaKind::out);
    CHECK(parse("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)").kind() == SchemaKind::inplace);
    CHECK(parse("__and__.Tensor(Tensor self, Tensor other) -> Tensor").kind() == SchemaKind::functional);
    CHECK(parse("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()").kind() == SchemaKind::inplace);
    CHECK(parse("_fused_moving_avg_obs_fq_helper(Tensor self, Tensor observer_on, Tensor(a!) running_min) -> (Tensor "
                "output, Tensor mask)")
              .kind() == SchemaKind::mutable_);
    // A view returns an alias of self but writes nothing.
    CHECK(parse("view(Tensor(a) self, SymInt[] size) -> Tensor(a)").kind() == SchemaKind::functional);
}

TEST_CASE("malformed schemas name the origin, the column and the problem") {
    struct Case {
        const char* text;
        const char* problem;
    };
    const Case cases[] = {
        {"add.Tensor(Tensor self, Tensor other -> Tensor", "expected ',' or ')' after an argument, found '-'"},
        {"foo(Tensor self) Tensor", "expected '->' after the arguments, found 'Tensor'"},
        {"foo(Tensor self)", "expected '->' after the arguments, found end of text"},
        {"foo(Tensr self) -> Tensor", "unknown type 'Tensr'"},
        {"foo(Tensor(a! self) -> Tensor", "expected ')' closing the alias annotation, found 'self'"},
        {"foo(Tensor(a -> ) self) -> Tensor", "expected an alias set name such as 'a', found ')'"},
        {"foo(int(a) x) -> int", "only Tensor may carry one"},
        {"foo(Tensor self, *, *, Tensor x) -> Tensor", "more than one '*' marker"},
        {"foo(Tensor self, *) -> Tensor", "keyword-only argument after '*'"},
        {"foo(str s=\"abc) -> Tensor", "unterminated string default"},
        {"foo(int[] x=[0,1) -> Tensor", "expected ',' or ']' in a list default"},
        {"foo(int x=) -> Tensor", "expected a default value"},
        {"foo(int[x] a) -> Tensor", "expected ']' closing the list type, found 'x'"},
        {"foo(Tensor a, Tensor a) -> Tensor", "duplicate argument name 'a'"},
        {"foo(*, Tensor(a!) out, int x) -> Tensor(a!)", "non-out argument 'x' after the out= arguments"},
        {"foo(Tensor a) -> (Tensor, Tensor", "expected ',' or ')' in the returns"},
        {"foo(Tensor a) -> Tensor x y", "expected end of schema after the returns, found 'y'"},
        {"foo(Tensor) -> Tensor", "expected a space between the type and the argument name"},
        {".foo(Tensor a) -> Tensor", "expected an operator name, found '.'"},
        {"foo.(Tensor a) -> Tensor", "expected an overload name after '.'"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const std::string message = error_of(c.text);
        CHECK(message.find("test.yaml:42:") == 0);
        CHECK(message.find(c.problem) != std::string::npos);
        CHECK(message.find(c.text) != std::string::npos); // the schema is quoted
    }
}

TEST_CASE("errors carry the exact column") {
    try {
        parse("foo(Tensr self) -> Tensor");
        FAIL("no error");
    } catch (const SchemaError& e) {
        CHECK(e.origin() == "test.yaml:42");
        CHECK(e.column() == 5);
        CHECK(std::string(e.what()).find("test.yaml:42:5: ") == 0);
    }
    CHECK_THROWS_AS(parse_type("Tensor[]]"), SchemaError);
    CHECK_THROWS_AS(parse_type("int[][]"), SchemaError);
}
