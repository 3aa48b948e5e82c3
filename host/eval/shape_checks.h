// shape_checks.h — shape types (`Tensor<[B, 3, H, W]>`, `Tensor<f32, [B, 10]>`) checked while a
// program runs.
//
// A function whose parameters or return are written with shape types has its symbols bound at
// each call from the arguments, consistently across all of them (a symbol is like a generic: one
// size per call), then the result checked against the same bindings. A mismatch is an error at
// the call's line that names the parameter, the dimension, the symbol and both sizes:
//
//     `y`: dimension 0 is 8 but `B` is 16 (from `pred`)
//
// Plain `Tensor` is not checked, and a function without shape types costs nothing here: its
// signature is null, found once when its body is planned (Interpreter::plan_body).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eval/interpreter.h"

namespace spl {

// The shape types of one function, by slot (self counted).
struct ShapeSignature {
    struct Param {
        size_t slot;
        std::string name;
        const ShapeExpr* shape;
    };
    std::vector<Param> params;
    const ShapeExpr* result = nullptr; // null when the return has no shape type
};

// A shape type's dtype, written with Simple's scalar names (`f32`), as PyTorch names it
// (`float32`); null for a name that is none.
const char* torch_dtype(const std::string& simple);

class ShapeBindings;
// A dimension's size under the bindings so far; false while a symbol in it is unbound. A
// division that leaves a remainder gives kNotWhole, which no size equals.
constexpr int64_t kNotWhole = -1;
bool evaluate(const DimExpr& d, const ShapeBindings& bound, int64_t& out);

// The function's shape types, or null when it has none.
std::shared_ptr<const ShapeSignature> shape_signature(const ast::FnProto& p);

// The sizes bound during one call (its parameters, then its annotated locals): each symbol's size (or sizes, for
// `*name`) and where it came from.
class ShapeBindings {
public:
    struct Binding {
        std::string symbol;
        std::vector<int64_t> sizes;
        std::string from; // the parameter that bound it
    };
    const Binding* find(const std::string& symbol) const;
    void bind(std::string symbol, std::vector<int64_t> sizes, std::string from);

private:
    std::vector<Binding> bindings_;
};

// Checks and binds the parameters' shapes (slots[i]: slot i's value) at a call made at `loc`.
void check_parameter_shapes(Interpreter& in, const ShapeSignature& sig, const ast::FnProto& p, const Value* slots,
                            SourceLoc loc, ShapeBindings& bound);

// Checks an annotated local (`val h: Tensor<[B, 64]> = ...`, named `name`) with the running
// call's bindings (`bound`; null at a module's top level, where each statement binds its own).
void check_local_shape(Interpreter& in, const ShapeExpr& shape, const Value& v, const std::string& name, SourceLoc loc,
                       ShapeBindings* bound);

// Checks a new instance's fields (`fields[i]`: field i, the class's `init` parameter i) against
// their shape types, with one binding per symbol across them: `C(...)` of a class declaring
// `w: Tensor<[D, D]>` and `b: Tensor<[D]>`.
void check_field_shapes(Interpreter& in, const ast::FnProto& init, const Value* fields, SourceLoc loc);

// Checks a call's result against the return's shape type, with the parameters' bindings.
void check_result_shape(Interpreter& in, const ShapeSignature& sig, const ast::FnProto& p, const Value& result,
                        SourceLoc loc, ShapeBindings& bound);

} // namespace spl
