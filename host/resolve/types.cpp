// types.cpp — compiling written types into TypeSpecs, and checking values against them.
#include "resolve/types.h"

#include "resolve/objects.h"
#include "base/scalar_types.h"

namespace spl {

namespace {

using Kind = TypeSpec::Kind;

// A plain name: a built-in type, a class or enum in scope, or `Scalar`.
// Anything else (a generic parameter, a trait, `a.Name`) stays Unchecked.
void compile_name(const std::string& name, const TypeLookup& lookup, TypeSpec& t) {
    if (find_int_type(name))
        t.kind = Kind::Int;
    else if (find_float_type(name))
        t.kind = Kind::Float;
    else if (name == "bool")
        t.kind = Kind::Bool;
    else if (is_text_type_name(name))
        t.kind = Kind::Text;
    else if (name == "any")
        t.kind = Kind::Any;
    else if (const Value* slot = lookup.find(name)) {
        t.kind = Kind::Named;
        t.named = slot;
    } else if (name == "Scalar") {
        t.kind = Kind::Scalar;
    }
}

TypeSpec compile(const TypeExpr& e, const TypeLookup& lookup) {
    TypeSpec t;
    switch (e.kind) {
    case TypeExpr::Kind::Optional:
        t = compile(*e.args[0], lookup);
        t.optional = true;
        return t;
    case TypeExpr::Kind::List:
        t.kind = Kind::Array;
        t.elems.push_back(compile(*e.args[0], lookup));
        break;
    case TypeExpr::Kind::Tuple:
        t.kind = Kind::Tuple;
        for (const TypePtr& a : e.args) t.elems.push_back(compile(*a, lookup));
        break;
    case TypeExpr::Kind::Dict: t.kind = Kind::Dict; return t;         // entries are not checked
    case TypeExpr::Kind::Function: t.kind = Kind::Callable; return t; // nor are signatures
    case TypeExpr::Kind::Named:
        // Generic types (Option<T>, Result<T, E>, List<T>) are not checked.
        if (!e.generic) compile_name(e.name, lookup, t);
        return t;
    }
    // Whether a check must look at the elements: a tuple always (its length),
    // an array unless every element type accepts anything.
    t.looks_inside = t.kind == Kind::Tuple;
    for (const TypeSpec& el : t.elems)
        t.looks_inside |= !(el.kind == Kind::Unchecked || (el.kind == Kind::Any && el.optional));
    return t;
}

} // namespace

TypeSpec compile_type(const TypeRef& type, const TypeLookup& lookup) {
    if (type.empty()) return *untyped_spec();
    return compile(*type.tree, lookup);
}

const std::shared_ptr<const TypeSpec>& untyped_spec() {
    static const std::shared_ptr<const TypeSpec> spec = [] {
        auto s = std::make_shared<TypeSpec>();
        s->kind = Kind::Untyped;
        return std::shared_ptr<const TypeSpec>(std::move(s));
    }();
    return spec;
}

bool type_accepts(const TypeSpec& t, const Value& v, bool overload, bool* inside) {
    if (v.is_nil()) return t.optional || t.kind == Kind::Unchecked || (t.kind == Kind::Untyped && !overload);
    switch (t.kind) {
    case Kind::Unchecked:
    case Kind::Untyped:
    case Kind::Any: return true;
    case Kind::Int: return v.is_int();
    case Kind::Float: return v.is_number();
    case Kind::Scalar: return v.is_number() || v.is_bool();
    case Kind::Bool: return v.is_bool();
    case Kind::Text: return v.is(ObjType::Str);
    case Kind::Named: {
        // The slot is filled when the module runs; something other than a
        // class or enum there (a value shadowing the name) is not checked.
        const Value& type = *t.named;
        if (type.is(ObjType::Class)) return v.is(ObjType::Instance) && v.as<InstanceObj>()->cls == type.obj();
        if (type.is(ObjType::Enum)) return v.is(ObjType::Variant) && v.as<VariantObj>()->type == type.obj();
        if (type.is(ObjType::Trait)) // an instance of a class with `impl Trait for C`
            return v.is(ObjType::Instance) && v.as<InstanceObj>()->cls->implements(type.obj());
        return true;
    }
    case Kind::Array: {
        const TypeSpec& elem = t.elems[0];
        // PyTorch lets `dim=1` stand for `[1]`; the binding wraps it.
        if (elem.kind == Kind::Int && v.is_int()) return true;
        if (elem.kind == Kind::Float && v.is_number()) return true;
        if (!v.is(ObjType::Array) && !v.is(ObjType::Tuple)) return false;
        if (!t.looks_inside) return true;
        *inside = true;
        const auto& items = v.is(ObjType::Array) ? v.as<ArrayObj>()->items : v.as<TupleObj>()->items;
        for (const Value& x : items)
            if (!type_accepts(elem, x, true, inside)) return false;
        return true;
    }
    case Kind::Tuple: {
        if (!v.is(ObjType::Tuple)) return false;
        *inside = true;
        const auto& items = v.as<TupleObj>()->items;
        if (items.size() != t.elems.size()) return false;
        for (size_t i = 0; i < items.size(); ++i)
            if (!type_accepts(t.elems[i], items[i], true, inside)) return false;
        return true;
    }
    case Kind::Dict: return v.is(ObjType::Dict);
    case Kind::Callable:
        if (!v.is_obj()) return false;
        switch (v.obj()->type) {
        case ObjType::Function:
        case ObjType::BoundMethod:
        case ObjType::Builtin:
        case ObjType::Extern:
        case ObjType::Class:
        case ObjType::VariantCtor:
        case ObjType::Overloads: return true;
        default: return false;
        }
    }
    return true;
}

} // namespace spl
