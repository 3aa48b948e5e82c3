// format.cpp — turning values into text: str(x) / print / interpolation
// (`display`) and the quoted form used inside containers (`repr`).
#include "eval/interpreter.h"
#include "eval/iterators.h"
#include "eval/ranges.h"
#include "eval/stack_limit.h"

namespace spl {

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '{': out += "\\{"; break;
        case '}': out += "\\}"; break;
        default: out += c;
        }
    }
    return out + "\"";
}

} // namespace

std::string Interpreter::type_name(const Value& v) const {
    switch (v.tag()) {
    case Value::Tag::Nil: return "nil";
    case Value::Tag::Bool: return "bool";
    case Value::Tag::Int: return "i64";
    case Value::Tag::Float: return "f64";
    case Value::Tag::Obj: break;
    }
    switch (v.obj()->type) {
    case ObjType::Str: return "text";
    case ObjType::Array: return "array";
    case ObjType::Tuple: return "tuple";
    case ObjType::Dict: return "dict";
    case ObjType::Range: return "range";
    case ObjType::Slice: return "slice";
    case ObjType::Cell: return "cell";
    case ObjType::Instance: return v.as<InstanceObj>()->cls->name;
    case ObjType::Variant: return v.as<VariantObj>()->type->name;
    case ObjType::Function:
    case ObjType::BoundMethod:
    case ObjType::Builtin:
    case ObjType::Extern:
    case ObjType::Overloads: return "fn";
    case ObjType::Class: return "class";
    case ObjType::Trait: return "trait";
    case ObjType::Ellipsis: return "ellipsis";
    case ObjType::Iterator: return v.as<IteratorObj>()->name;
    case ObjType::Enum:
    case ObjType::VariantCtor: return "enum";
    case ObjType::Module: return "module";
    case ObjType::Expectation: return "expectation";
    }
    return "?";
}

std::string Interpreter::format_with(const Value& v, const FormatSpec& spec, SourceLoc loc) {
    try {
        if (v.is_int()) return format_integer(v.as_int(), spec);
        if (v.is_float()) return format_floating(v.as_float(), spec);
        if (v.is(ObjType::Str)) return format_text(str_of(v), spec);
        // An object formats itself when it can (PyTorch's 0-d Tensor formats
        // its item(), as Tensor.__format__ does).
        Value method = find_method(v, "format");
        if (!method.is_nil()) {
            Value r = call_method(v, method, {make_str(spec.text)}, loc);
            if (!r.is(ObjType::Str))
                runtime_error(loc, type_name(v) + ".format() must return text, got " + type_name(r));
            return str_of(r);
        }
        // Anything else (bool, nil, arrays, objects with to_string) is its text.
        if (!spec.text_only())
            throw FormatError("unsupported format spec '" + spec.text + "' for a value of type " + type_name(v) +
                              ": only fill, alignment, width and precision apply to its text" +
                              (v.is(ObjType::Instance) ? " (a class can define `fn format(spec: text) -> text`)" : ""));
        return format_text(display(v, loc), spec, type_name(v));
    } catch (const FormatError& e) {
        runtime_error(loc, e.what());
    }
}

std::string Interpreter::repr(const Value& v, SourceLoc loc) {
    if (v.is(ObjType::Str)) return quote(str_of(v));
    return display(v, loc);
}

std::string Interpreter::display(const Value& v, SourceLoc loc) {
    switch (v.tag()) {
    case Value::Tag::Nil: return "nil";
    case Value::Tag::Bool: return v.as_bool() ? "true" : "false";
    case Value::Tag::Int: return std::to_string(v.as_int());
    case Value::Tag::Float: return format_float(v.as_float());
    case Value::Tag::Obj: break;
    }
    // A value nested deeper than the stack allows (built at run time, so no syntax limit
    // applies) is an error, as Python's RecursionError, not a crash.
    if (stack_below(stack_floor_))
        runtime_error(loc, "maximum recursion depth exceeded while getting the text of a value (nested too deeply)");
    auto join = [&](const std::vector<Value>& items, const char* open, const char* close) {
        std::string out = open;
        for (size_t i = 0; i < items.size(); ++i) {
            if (i) out += ", ";
            out += repr(items[i], loc);
        }
        return out + close;
    };
    switch (v.obj()->type) {
    case ObjType::Str: return str_of(v);
    case ObjType::Array: return join(v.as<ArrayObj>()->items, "[", "]");
    case ObjType::Tuple: {
        const auto& items = v.as<TupleObj>()->items;
        return items.size() == 1 ? "(" + repr(items[0], loc) + ",)" : join(items, "(", ")");
    }
    case ObjType::Dict: {
        std::string out = "{";
        bool first = true;
        for (const auto& [k, x] : v.as<DictObj>()->entries) {
            if (!first) out += ", ";
            first = false;
            out += repr(k, loc) + ": " + repr(x, loc);
        }
        return out + "}";
    }
    case ObjType::Range: return range_text(*v.as<RangeObj>());
    case ObjType::Slice: {
        auto* s = v.as<SliceObj>();
        auto part = [&](const Value& x) { return x.is_nil() ? std::string() : display(x, loc); };
        std::string out = part(s->start) + ":" + part(s->stop);
        if (!s->step.is_nil()) out += ":" + part(s->step);
        return out;
    }
    case ObjType::Cell: return display(v.as<CellObj>()->value, loc);
    case ObjType::Instance: {
        auto* inst = v.as<InstanceObj>();
        const Value& to_string = inst->cls->op(Op::ToString);
        if (!to_string.is_nil()) {
            Value s = call_method(v, to_string, {}, loc);
            return s.is(ObjType::Str) ? str_of(s) : display(s, loc);
        }
        std::string out = inst->cls->name + "(";
        for (size_t i = 0; i < inst->fields.size(); ++i) {
            if (i) out += ", ";
            out += inst->cls->field_names[i] + ": " + repr(inst->fields[i], loc);
        }
        return out + ")";
    }
    case ObjType::Variant: {
        auto* var = v.as<VariantObj>();
        auto it = var->type->methods.find("to_string");
        if (it != var->type->methods.end()) {
            Value s = call_method(v, it->second, {}, loc);
            return s.is(ObjType::Str) ? str_of(s) : display(s, loc);
        }
        bool builtin = var->type == option_ || var->type == result_;
        std::string out = builtin ? var->name() : var->type->name + "." + var->name();
        if (!var->payload.empty()) out += join(var->payload, "(", ")");
        return out;
    }
    case ObjType::Function: return "<fn " + v.as<FunctionObj>()->proto->qualified_name + ">";
    case ObjType::Overloads: {
        auto* set = v.as<OverloadSetObj>();
        return "<fn " + set->name + " (" + std::to_string(set->fns.size()) + " overloads)>";
    }
    case ObjType::BoundMethod: {
        const Value& m = v.as<BoundMethodObj>()->method;
        return "<method " +
               (m.is(ObjType::Function) ? m.as<FunctionObj>()->proto->qualified_name : m.as<OverloadSetObj>()->name) +
               ">";
    }
    case ObjType::Builtin: return std::string("<builtin ") + v.as<BuiltinObj>()->def->name + ">";
    case ObjType::Extern: return "<extern fn " + v.as<ExternObj>()->decl->name + ">";
    case ObjType::Class: return "<class " + v.as<ClassObj>()->name + ">";
    case ObjType::Enum: return "<enum " + v.as<EnumObj>()->name + ">";
    case ObjType::Trait: return "<trait " + v.as<TraitObj>()->name + ">";
    case ObjType::Ellipsis: return "Ellipsis";
    case ObjType::Iterator: return std::string("<") + v.as<IteratorObj>()->name + " object>";
    case ObjType::VariantCtor: {
        auto* c = v.as<VariantCtorObj>();
        return "<variant " + c->type->name + "." + c->type->variants[c->index].name + ">";
    }
    case ObjType::Module: return "<module " + v.as<ModuleObj>()->name + ">";
    case ObjType::Expectation: return "<expectation>";
    }
    return "?";
}

} // namespace spl
