// type_expr.h — a written type, parsed once into a tree.
//
// The parser builds the tree from a declaration's tokens; a plugin's
// registered signature text (`simple_type`) goes through parse_type_text.
// Everything else reads the tree: types.h compiles parameter checks from it,
// extern_call.h its conversions. The canonical text (`[i64]`, `f64?`,
// `(text, i64)`, `fn(i64) -> i64`) is printed from the tree, so a declared
// extern and a plugin's registration compare as texts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace spl {

struct Token;

struct TypeExpr;
using TypePtr = std::shared_ptr<const TypeExpr>;

// One dimension of a shape type (`Tensor<[B, 3, H * W]>`): a size, a symbol (bound per call,
// like a generic), `_` (any one size), `*name` (any number of dimensions, bound as a whole, as
// jaxtyping's `*batch`), or `+ - * /` of sizes and symbols.
class Value;
struct DimExpr;
using DimPtr = std::shared_ptr<const DimExpr>;
struct DimExpr {
    enum class Kind : unsigned char { Size, Symbol, Any, Rest, Binary };
    Kind kind = Kind::Size;
    int64_t size = 0; // Size
    std::string name; // Symbol, Rest
    // Symbol: the module's global of the same name, set by the resolver; while it holds an
    // integer the symbol is that constant (`val D = 768` ... `Tensor<[B, D]>`).
    mutable const Value* constant = nullptr;
    char op = 0;     // Binary: '+', '-', '*' or '/'
    DimPtr lhs, rhs; // Binary
};

// The `<...>` of a shape type: `Tensor<f32, [B, 10]>` (the dtype is optional).
struct ShapeExpr {
    std::string dtype; // a Simple scalar name (`f32`), "" when not written
    std::vector<DimPtr> dims;
};

struct TypeExpr {
    enum class Kind : unsigned char {
        Named,    // `i64`, `Tensor`, `lib.Point`, `Option<T>` (name, generic args)
        Optional, // `T?` (args[0]: T)
        List,     // `[T]` (args[0]: T)
        Tuple,    // `(A, B)` (args: the elements)
        Dict,     // `{K: V}` (args: K, V)
        Function, // `fn(A, B) -> R` (args: parameters; result: R, null when not written)
    };
    Kind kind = Kind::Named;
    std::string name;          // Named
    bool generic = false;      // Named: written with `<...>` (even `<>`), so printed with it
    std::vector<TypePtr> args; // see Kind
    TypePtr result;            // Function
    // Named `Tensor<...>` written with a shape (its args stay empty); null otherwise.
    std::shared_ptr<const ShapeExpr> shape;
};

// A shape type's dimensions as written (`[B, C * H]`), and one dimension's text.
std::string to_text(const ShapeExpr& s);
std::string to_text(const DimExpr& d);

// A type as a declaration holds it: the tree (null when no type was written)
// and the canonical text printed from it once, for messages and comparisons.
struct TypeRef {
    TypePtr tree;
    std::string text; // "" when not written

    TypeRef() = default;
    explicit TypeRef(TypePtr t);
    bool empty() const { return !tree; }
};

// The canonical text of a type.
std::string to_text(const TypeExpr& t);

// The type grammar over tokens, starting at toks[pos]; leaves `pos` after the
// type. Throws ProgramError (ErrorKind::Syntax) as the parser does, with the
// same "expected X, found Y" messages.
TypePtr parse_type_tokens(const std::vector<Token>& toks, size_t& pos);

// A whole text as one type (a plugin's `simple_type`); null when it is not one.
TypePtr parse_type_text(std::string_view text);

// The canonical form of type text from outside: printed from its tree, or the
// trimmed input when it does not parse as a type (so that a mismatch message
// still shows what the plugin registered).
std::string canonical_type(std::string_view text);

} // namespace spl
