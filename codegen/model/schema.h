// The schema model: a frozen, lossless description of one ATen operator
// schema, as written in native_functions.yaml / at::_ops::*::schema_str.
// Layer 1 of the generator (model). It knows nothing of C, C++ or Simple.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace codegen {

// An alias annotation: `(a)`, `(a!)`, `(a -> *)`, `(a! -> a|b)`.
struct Alias {
    std::vector<std::string> before_set; // "a" (several joined by '|')
    bool is_write = false;               // the '!'
    std::vector<std::string> after_set;  // after "->" ("*" for wildcard); empty when absent
    bool has_arrow = false;
};

// A type such as `Tensor(a!)?[]`, `int[2]`, `SymInt[]?`, `Scalar?`.
// Grammar (torchgen): base [alias] ['?'] [ '[' [N] ']' ['?'] ]
struct Type {
    std::string base;                 // "Tensor", "int", "SymInt", "Scalar", "ScalarType", ...
    std::optional<Alias> alias;       // annotation on the element type
    bool elem_optional = false;       // `Tensor?[]` : the element is optional
    bool is_list = false;             // `[]` or `[N]`
    std::optional<int64_t> list_size; // N of `[N]`
    bool optional = false;            // outer `?`: the whole value may be None

    std::string str() const;                                     // canonical text, round-trips with parse_type
    bool is_written() const { return alias && alias->is_write; } // `Tensor(a!)`: the operator writes it
};

struct Argument {
    std::string name;
    Type type;
    std::optional<std::string> default_value; // the default exactly as written
    bool kwarg_only = false;                  // appeared after `*`
    bool is_out = false;                      // kwarg-only and written-to (out= argument)
};

struct Return {
    std::optional<std::string> name; // named returns: `(Tensor values, Tensor indices)`
    Type type;
};

// How an operator treats its outputs.
enum class SchemaKind { functional, inplace, out, mutable_ };

struct FunctionSchema {
    std::string name;                // "add", "__and__", "_foo_"
    std::string overload_name;       // "Tensor", "out", "" when none
    std::vector<Argument> arguments; // in order; kwarg_only marks those after `*`
    std::vector<Return> returns;
    bool returns_tuple_syntax = false; // returns were written `(...)` even with one entry

    std::string qualified_name() const; // "add.Tensor" or "add"
    std::string str() const;            // canonical text; equals the YAML `func:` after whitespace normalisation
    SchemaKind kind() const;
};

// One operator of the IR: a schema plus what native_functions.yaml says about it.
struct Operator {
    FunctionSchema schema;
    std::vector<std::string> variants; // "function", "method" (sorted)
    std::vector<std::string> tags;     // from `tags:` (sorted)
    bool autogen = false;              // created by expanding an `autogen:` entry
    std::string origin;                // "native_functions.yaml:1234" or "header:..."; for errors
};

struct OperatorSet {
    std::string libtorch_version;    // e.g. "2.15.0"
    std::string source;              // "native_functions.yaml" or "headers"
    std::vector<Operator> operators; // sorted by (name, overload_name)
};

} // namespace codegen
