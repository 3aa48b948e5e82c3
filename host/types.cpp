#include "types.h"

#include <cctype>

#include "objects.h"

namespace spl {

namespace {

using Kind = TypeSpec::Kind;

// Reads canonical type text (as the parser writes it: `[T]`, `(A, B)`,
// `{K: V}`, `fn(A) -> R`, `Name`, `a.Name`, `Name<A>`, each maybe followed
// by `?`). The text is the parser's own output, so it is well formed; an
// unexpected character just ends the type, which then goes unchecked.
class TypeReader {
public:
    TypeReader(const std::string& text, const TypeLookup& lookup) : s_(text), lookup_(lookup) {}

    TypeSpec read() {
        TypeSpec t;
        if (eat('[')) {
            t.kind = Kind::Array;
            t.elems.push_back(read());
            eat(']');
        } else if (eat('(')) {
            t.kind = Kind::Tuple;
            while (pos_ < s_.size() && s_[pos_] != ')') {
                t.elems.push_back(read());
                if (!eat(',')) break;
                skip_spaces();
            }
            eat(')');
        } else if (eat('{')) {
            t.kind = Kind::Dict;
            read();
            eat(':');
            skip_spaces();
            read();
            eat('}');
        } else {
            std::string name = identifier();
            while (eat('.')) name += "." + identifier();
            if (name == "fn" && eat('(')) {
                t.kind = Kind::Callable;
                while (pos_ < s_.size() && s_[pos_] != ')') {
                    read();
                    if (!eat(',')) break;
                    skip_spaces();
                }
                eat(')');
                if (s_.compare(pos_, 4, " -> ") == 0) {
                    pos_ += 4;
                    read();
                }
            } else if (eat('<')) {
                // Generic types (Option<T>, Result<T, E>, List<T>): not checked.
                while (pos_ < s_.size() && s_[pos_] != '>') {
                    read();
                    if (!eat(',')) break;
                    skip_spaces();
                }
                eat('>');
            } else {
                named(name, t);
            }
        }
        while (eat('?')) t.optional = true;
        if (t.kind == Kind::Array || t.kind == Kind::Tuple) {
            t.looks_inside = t.kind == Kind::Tuple;
            for (const TypeSpec& e : t.elems)
                t.looks_inside |= !(e.kind == Kind::Unchecked || (e.kind == Kind::Any && e.optional));
        }
        return t;
    }

private:
    void named(const std::string& name, TypeSpec& t) const {
        static const char* const ints[] = {"i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8", "isize", "usize"};
        for (const char* i : ints)
            if (name == i) {
                t.kind = Kind::Int;
                return;
            }
        if (name == "f64" || name == "f32") t.kind = Kind::Float;
        else if (name == "bool") t.kind = Kind::Bool;
        else if (name == "text" || name == "str" || name == "String") t.kind = Kind::Text;
        else if (name == "any") t.kind = Kind::Any;
        else if (const Value* slot = lookup_.find(name)) {
            t.kind = Kind::Named;
            t.named = slot;
        } else if (name == "Scalar") {
            t.kind = Kind::Scalar;
        }
    }
    std::string identifier() {
        size_t b = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
        return s_.substr(b, pos_ - b);
    }
    bool eat(char c) {
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void skip_spaces() {
        while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
    }

    const std::string& s_;
    const TypeLookup& lookup_;
    size_t pos_ = 0;
};

} // namespace

TypeSpec compile_type(const std::string& canonical, const TypeLookup& lookup) {
    if (canonical.empty()) return *untyped_spec();
    TypeReader reader(canonical, lookup);
    return reader.read();
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
    case Kind::Unchecked: case Kind::Untyped: case Kind::Any: return true;
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
        case ObjType::Function: case ObjType::BoundMethod: case ObjType::Builtin: case ObjType::Extern:
        case ObjType::Class: case ObjType::VariantCtor: case ObjType::Overloads: return true;
        default: return false;
        }
    }
    return true;
}

} // namespace spl
