// Schema text -> model. A hand-written recursive-descent parser for the
// torchgen schema grammar (the `func:` lines of native_functions.yaml and the
// `schema_str` of ATen/ops/*_ops.h).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/schema.h"

namespace codegen {

// A schema that does not follow the grammar. what() reads
// "<origin>:<column>: expected <what>, found <what> in `<schema>`" so that a
// bad line in a 16k-line YAML file can be found without a debugger.
class SchemaError : public std::runtime_error {
public:
    SchemaError(std::string origin, size_t column, const std::string& problem, std::string_view text);

    const std::string& origin() const { return origin_; }
    size_t column() const { return column_; } // 1-based, into the schema text
    const std::string& problem() const { return problem_; }

private:
    std::string origin_;
    size_t column_;
    std::string problem_;
};

// Parses a type such as `Tensor(a!)?[]`, `int[2]`, `SymInt[]?`.
Type parse_type(std::string_view text, const std::string& origin = "<type>");

// Parses a whole schema: `name.overload(args) -> returns`.
FunctionSchema parse_schema(std::string_view text, const std::string& origin);

// The base types torchgen knows (BaseTy), plus custom classes spelled
// `__torch__.torch.classes.<name>`.
bool is_known_base_type(std::string_view base);

} // namespace codegen
