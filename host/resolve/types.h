// types.h — declared parameter types, compiled once and checked against values.
//
// The parser keeps each written type as a tree (type_expr.h). The resolver
// compiles each parameter's type into a TypeSpec, resolving class
// and enum names to the global slot that will hold them, so that checking a
// value at a call is a few compares and never a string operation. Checks are
// what overload resolution is built on (overloads.h); single functions use
// the same rules with one leniency (see TypeSpec::Kind::Untyped).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "syntax/type_expr.h"
#include "base/value.h"

namespace spl {

struct TypeSpec {
    enum class Kind : uint8_t {
        Unchecked, // a name the host cannot check (generic parameter, trait, Option<T>, ...): anything
        Untyped,   // no annotation: a value (not nil) in an overload, anything in a single function
        Any,       // `any`: a value, not nil
        Int,       // i64 and the other integer types: an Int, not a Bool
        Float,     // f64, f32: a Float or an Int
        Scalar,    // `Scalar` (unless a class of that name is in scope): an Int, a Float or a Bool, as ATen's Scalar
        Bool,
        Text,
        Named,    // a class or enum: an instance / variant of it
        Array,    // [T]: an array (or tuple) whose elements match; [i64] also takes an Int, [f64] a number
        Tuple,    // (A, B): a tuple of that length whose elements match
        Dict,     // {K: V}: a dict (its entries are not checked)
        Callable, // fn(...) -> R: anything callable (not checked further)
    };
    Kind kind = Kind::Unchecked;
    bool optional = false;        // `T?`: nil is accepted too
    bool looks_inside = false;    // the answer may depend on an array's or tuple's elements
    const Value* named = nullptr; // Named: the global slot holding the class or enum
    std::vector<TypeSpec> elems;  // Array: one; Tuple: one per element

    // A single function's check of this type can never fail: skipped on calls.
    bool trivial_for_single() const {
        return kind == Kind::Unchecked || kind == Kind::Untyped || (kind == Kind::Any && optional);
    }
    // An argument of this type given as a single number is passed as a one-element array.
    bool wraps_number() const {
        return kind == Kind::Array && (elems[0].kind == Kind::Int || elems[0].kind == Kind::Float);
    }
};

// Finds the global slot a type name refers to (null when there is none).
class TypeLookup {
public:
    virtual const Value* find(const std::string& name) const = 0;

protected:
    ~TypeLookup() = default;
};

// Compiles a written type (empty when no annotation was written).
TypeSpec compile_type(const TypeRef& type, const TypeLookup& lookup);

// The spec shared by every unannotated parameter.
const std::shared_ptr<const TypeSpec>& untyped_spec();

// Does `v` fit `t`? In an overload set (`overload`), an unannotated parameter
// refuses nil; in a single function it takes anything. `*inside` is set when
// the answer came from looking at an array's or tuple's elements (so another
// value of the same kind may be answered differently).
bool type_accepts(const TypeSpec& t, const Value& v, bool overload, bool* inside);

// A value's type as a message shows it: `i64`, `Tensor`, `[i64]`, `[i64 | text]`, `(i64, text)`.
// `base_name` names a value that is not an array or tuple.
template <class BaseName>
std::string describe_value_type(const Value& v, const BaseName& base_name) {
    if (!v.is(ObjType::Array) && !v.is(ObjType::Tuple)) return base_name(v);
    const bool array = v.is(ObjType::Array);
    const auto& items = array ? v.as<ArrayObj>()->items : v.as<TupleObj>()->items;
    std::string out = array ? "[" : "(";
    if (array) {
        std::vector<std::string> seen; // distinct element types, in order of appearance
        for (const Value& x : items) {
            std::string t = describe_value_type(x, base_name);
            bool known = false;
            for (const auto& s : seen) known |= s == t;
            if (!known) seen.push_back(std::move(t));
        }
        for (size_t i = 0; i < seen.size(); ++i) out += (i ? " | " : "") + seen[i];
    } else {
        for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + describe_value_type(items[i], base_name);
    }
    return out + (array ? "]" : ")");
}

} // namespace spl
