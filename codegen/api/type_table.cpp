// The one table: how each schema type maps to the C ABI, the C++ conversion and Simple (layer 2).
#include "api/type_table.h"

#include "api/text_template.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace codegen::api {
namespace {

using C = Carrier;
using L = Literal;

// The key of a type in the tables below: its base, `?` for an optional
// element, `[]` for a list (`[N]` for fixed-size bool lists, which ATen takes
// as std::array), and a trailing `?` for an optional value.
std::string key_of(const Type& t) {
    std::string key = t.base;
    if (!t.is_list) return (t.optional || t.elem_optional) ? key + "?" : key;
    if (t.elem_optional) key += "?";
    key += (t.base == "bool" && t.list_size) ? "[N]" : "[]";
    if (t.optional) key += "?";
    return key;
}

// clang-format off
// key, C carrier, Simple, BoxedArgs, to ATen, lib.torch type, lib.torch -> extern,
// default literal, carries tensors, BoxedArgs for a fixed-size list
const std::vector<ArgBinding> kArguments = {
    {"Tensor",       C::I64,      "i64",     "handle",    "spl::tensor({v}, {n})", "Tensor", "{v}.h", L::Tensor, true, ""},
    {"Tensor?",      C::I64,      "i64",     "handle",    "spl::opt_tensor({v}, {n})", "Tensor?", "opt_handle({v})", L::Tensor, true, ""},
    {"Tensor[]",     C::I64Array, "[i64]",   "i64_list",  "spl::tensor_list({v}, {n})", "[Tensor]", "handles({v})", L::Tensor, true, ""},
    {"Tensor?[]",    C::I64Array, "[i64]",   "i64_list",  "spl::opt_tensor_list({v}, {n})", "[Tensor?]", "opt_handles({v})", L::Tensor, true, ""},
    {"int",          C::I64,      "i64",     "i64",       "{v}", "i64", "{v}", L::Int, false, ""},
    {"int?",         C::Value,    "i64?",    "value",     "spl::opt_int({v}, {n})", "i64?", "{v}", L::Int, false, ""},
    {"int[]",        C::I64Array, "[i64]",   "i64_list",  "spl::int_list({v}, {n})", "[i64]", "{v}", L::Int, false, "sized_i64_list"},
    {"int[]?",       C::I64Array, "[i64]?",  "i64_list",  "spl::opt_int_list({v}, {n})", "[i64]?", "{v}", L::Int, false, "sized_i64_list"},
    {"SymInt",       C::I64,      "i64",     "i64",       "spl::sym_int({v})", "i64", "{v}", L::Int, false, ""},
    {"SymInt?",      C::Value,    "i64?",    "value",     "spl::opt_sym_int({v}, {n})", "i64?", "{v}", L::Int, false, ""},
    {"SymInt[]",     C::I64Array, "[i64]",   "i64_list",  "spl::sym_int_list({v}, {n})", "[i64]", "{v}", L::Int, false, "sized_i64_list"},
    {"SymInt[]?",    C::I64Array, "[i64]?",  "i64_list",  "spl::opt_sym_int_list({v}, {n})", "[i64]?", "{v}", L::Int, false, "sized_i64_list"},
    {"DeviceIndex",  C::I64,      "i64",     "i64",       "spl::device_index({v})", "i64", "{v}", L::Int, false, ""},
    {"float",        C::F64,      "f64",     "f64",       "{v}", "f64", "{v}", L::Float, false, ""},
    {"float?",       C::Value,    "f64?",    "value",     "spl::opt_float({v}, {n})", "f64?", "{v}", L::Float, false, ""},
    {"float[]?",     C::F64Array, "[f64]?",  "f64_list",  "spl::opt_float_list({v}, {n})", "[f64]?", "{v}", L::Float, false, ""},
    {"bool",         C::Bool,     "bool",    "boolean",   "{v}", "bool", "{v}", L::Bool, false, ""},
    {"bool?",        C::Value,    "bool?",   "value",     "spl::opt_bool({v}, {n})", "bool?", "{v}", L::Bool, false, ""},
    {"bool[N]",      C::BoolArray, "[bool]",  "bool_list", "spl::bool_array<{N}>({v}, {n})", "[bool]", "{v}", L::Bool, false, ""},
    {"str",          C::Text,     "text",    "text",      "spl::text({v}, {n})", "text", "{v}", L::Text, false, ""},
    {"str?",         C::Text,     "text?",   "text",      "spl::opt_text({v})", "text?", "{v}", L::Text, false, ""},
    {"Scalar",       C::Value,    "any",     "value",     "spl::scalar({v}, {n})", "Scalar", "{v}", L::Scalar, false, ""},
    {"Scalar?",      C::Value,    "any?",    "value",     "spl::opt_scalar({v}, {n})", "Scalar?", "{v}", L::Scalar, false, ""},
    {"Scalar[]",     C::Array,    "[any]",   "array",     "spl::scalar_list({v}, {n})", "[Scalar]", "{v}", L::Scalar, false, ""},
    {"ScalarType",   C::Text,     "text",    "text",      "spl::dtype({v}, {n})", "text", "{v}", L::Dtype, false, ""},
    {"ScalarType?",  C::Text,     "text?",   "text",      "spl::opt_dtype({v}, {n})", "text?", "{v}", L::Dtype, false, ""},
    {"Layout",       C::Text,     "text",    "text",      "spl::layout({v}, {n})", "text", "{v}", L::Text, false, ""},
    {"Layout?",      C::Text,     "text?",   "text",      "spl::opt_layout({v}, {n})", "text?", "{v}", L::Text, false, ""},
    {"MemoryFormat", C::Text,     "text",    "text",      "spl::memory_format({v}, {n})", "text", "{v}", L::Text, false, ""},
    {"MemoryFormat?",C::Text,     "text?",   "text",      "spl::opt_memory_format({v}, {n})", "text?", "{v}", L::Text, false, ""},
    {"Device",       C::Text,     "text",    "text",      "spl::device({v}, {n})", "text", "{v}", L::Text, false, ""},
    {"Device?",      C::Text,     "text?",   "text",      "spl::opt_device({v}, {n})", "text?", "{v}", L::Text, false, ""},
    // lib.torch takes a Generator object (tensor.spl); the extern gets its handle (an i64
    // seed still works at the extern: a fresh generator for that call).
    {"Generator?",   C::Value,    "i64?",    "value",     "spl::opt_generator({v}, {n})", "Generator?", "generator_arg({v})", L::Other, false, ""},
    {"Dimname",      C::Text,     "text",    "text",      "spl::dimname({v}, {n})", "text", "{v}", L::Text, false, ""},
    {"Dimname[]",    C::TextArray, "[text]",  "text_list", "spl::dimname_list({v}, {n})", "[text]", "{v}", L::Text, false, ""},
    {"Dimname[]?",   C::TextArray, "[text]?", "text_list", "spl::opt_dimname_list({v}, {n})", "[text]?", "{v}", L::Text, false, ""},
};

// key, C carrier, Simple, ATen -> typed ABI, ATen -> boxed, lib.torch type, extern -> lib.torch, is one tensor
const std::vector<ReturnBinding> kReturns = {
    {"Tensor",     C::I64,      "i64",   "spl::new_handle({r})",       "spl::v_i64(spl::new_handle({r}))", "Tensor", "Tensor(h: {r})", true},
    {"Tensor[]",   C::Value,    "[i64]", "spl::tensor_list_value({r})", "spl::tensor_list_value({r})", "[Tensor]", "Tensor.wrap_all({r})", false},
    {"int[]",      C::Value,    "[i64]", "spl::int_list_value({r})",    "spl::int_list_value({r})", "[i64]", "{r}", false},
    {"int",        C::I64,      "i64",   "{r}",                        "spl::v_i64({r})", "i64", "{r}", false},
    {"SymInt",     C::I64,      "i64",   "spl::sym_int_value({r})",    "spl::v_i64(spl::sym_int_value({r}))", "i64", "{r}", false},
    {"float",      C::F64,      "f64",   "{r}",                        "spl::v_f64({r})", "f64", "{r}", false},
    {"bool",       C::Bool,     "bool",  "{r}",                        "spl::v_bool({r})", "bool", "{r}", false},
    {"SymBool",    C::Bool,     "bool",  "spl::sym_bool_value({r})",   "spl::v_bool(spl::sym_bool_value({r}))", "bool", "{r}", false},
    {"Scalar",     C::Value,    "any",   "spl::scalar_value({r})",     "spl::scalar_value({r})", "Scalar", "{r}", false},
    {"ScalarType", C::Text,     "text",  "spl::dtype_value({r})",      "spl::v_text(spl::dtype_value({r}))", "text", "{r}", false},
    {"QScheme",    C::Text,     "text",  "spl::qscheme_value({r})",    "spl::v_text(spl::qscheme_value({r}))", "text", "{r}", false},
};
// A return aliasing a written argument: that argument's handle(s), {r} its C name.
const ReturnBinding kAliasedTensor = {"Tensor(a!)", C::I64, "i64", "{r}", "spl::v_i64({r})", "Tensor", "", true};
const ReturnBinding kAliasedTensorList = {"Tensor(a!)[]", C::Value, "[i64]", "spl::handle_list_value({r})",
                                          "spl::handle_list_value({r})", "[Tensor]", "", false};
// clang-format on

const char* kNoBinding =
    "no Simple binding for this type (see docs/type-table.md); exclude the operator in schema/policy.json";

std::vector<std::string> split_list(std::string text) {
    // "[0, 1]" -> {"0", "1"}; "[]" -> {}
    std::vector<std::string> items;
    if (text.size() < 2 || text.front() != '[') return {text};
    text = text.substr(1, text.size() - 2);
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

// A schema string literal ('x' or "x", with backslash escapes) -> its value.
std::string unquote(const std::string& s) {
    if (s.size() < 2 || (s.front() != '"' && s.front() != '\'')) return s;
    std::string value;
    for (size_t i = 1; i + 1 < s.size(); ++i) {
        if (s[i] == '\\' && i + 2 < s.size()) ++i;
        value += s[i];
    }
    return value;
}

// Reduction names used as int defaults (at::Reduction::Reduction).
std::string int_literal(const std::string& d) {
    if (d == "Mean") return "1";
    if (d == "Sum") return "2";
    if (d == "None") return "0";
    return d;
}

bool looks_float(const std::string& d) {
    return d.find_first_of(".eE") != std::string::npos || d.find("inf") != std::string::npos ||
           d.find("nan") != std::string::npos;
}

std::string float_cpp(const std::string& d) {
    if (d == "inf") return "std::numeric_limits<double>::infinity()";
    if (d == "-inf") return "-std::numeric_limits<double>::infinity()";
    if (d == "nan") return "std::numeric_limits<double>::quiet_NaN()";
    return looks_float(d) ? d : d + ".0";
}

std::string float_simple(const std::string& d) { return looks_float(d) ? d : d + ".0"; }

std::string dtype_literal(const std::string& d) {
    static const std::map<std::string, std::string> canonical = {
        {"long", "int64"},   {"float", "float32"}, {"double", "float64"}, {"int", "int32"},
        {"half", "float16"}, {"bool", "bool"},     {"uint8", "uint8"}};
    auto it = canonical.find(d);
    return it == canonical.end() ? d : it->second;
}

std::string bool_literal(const std::string& d) { return d == "True" ? "true" : "false"; }

} // namespace

std::optional<ArgBinding> bind_argument(const Type& type, std::string* why) {
    const std::string key = key_of(type);
    for (const auto& row : kArguments)
        if (row.key == key) return row;
    if (why) *why = "argument type " + type.str() + ": " + kNoBinding;
    return std::nullopt;
}

std::optional<ReturnBinding> bind_return(const Type& type, std::string* why) {
    const std::string key = key_of(type);
    for (const auto& row : kReturns)
        if (row.key == key) return row;
    if (why) *why = "return type " + type.str() + ": " + kNoBinding;
    return std::nullopt;
}

ReturnBinding bind_aliased_return(const Type& type) { return type.is_list ? kAliasedTensorList : kAliasedTensor; }

const char* c_type(Carrier carrier) {
    switch (carrier) {
    case Carrier::Void: return "void";
    case Carrier::I64: return "int64_t";
    case Carrier::F64: return "double";
    case Carrier::Bool: return "bool";
    case Carrier::Text: return "const char*";
    case Carrier::Value: return "SplValue";
    case Carrier::I64Array: return "SplI64Array";
    case Carrier::F64Array: return "SplF64Array";
    case Carrier::BoolArray: return "SplBoolArray";
    case Carrier::TextArray: return "SplTextArray";
    case Carrier::Array: return "SplArray";
    }
    return "void";
}

DefaultBinding bind_default(const Argument& arg, const std::string& array_name) {
    const std::string& d = *arg.default_value;
    const ArgBinding binding = *bind_argument(arg.type, nullptr);
    const std::string c = binding.c_type();

    if (d == "None") {
        switch (binding.carrier) {
        case Carrier::I64: return {"int64_t(0)", "", "0", "nil"}; // Tensor?: the null handle
        case Carrier::Value: return {"spl::v_nil()", "", "nil", "nil"};
        case Carrier::Text: return {"static_cast<const char*>(nullptr)", "", "nil", "nil"};
        default: return {c + "{nullptr, -1}", "", "nil", "nil"}; // an optional list: length -1
        }
    }
    auto same = [](std::string cpp, std::string simple) { return DefaultBinding{std::move(cpp), "", simple, simple}; };
    switch (binding.carrier) {
    case Carrier::I64: return same("int64_t(" + int_literal(d) + ")", int_literal(d));
    case Carrier::F64: return same(float_cpp(d), float_simple(d));
    case Carrier::Bool: return same(bool_literal(d), bool_literal(d));
    case Carrier::Value:
        if (d == "True" || d == "False") return same("spl::v_bool(" + bool_literal(d) + ")", bool_literal(d));
        if (binding.literal == Literal::Float || looks_float(d))
            return same("spl::v_f64(" + float_cpp(d) + ")", float_simple(d));
        return same("spl::v_i64(" + int_literal(d) + ")", int_literal(d));
    case Carrier::Text: {
        std::string value = unquote(d);
        if (binding.literal == Literal::Dtype) value = dtype_literal(value);
        return same(quoted(value), quoted(value));
    }
    default: break;
    }
    // Lists: a bare value stands for every element of a sized list (`int[2] stride=1`).
    std::vector<std::string> items = split_list(d);
    if (d.empty() || d.front() != '[') {
        const size_t n = arg.type.list_size.value_or(1);
        items.assign(n, d);
    }
    std::string elem_c, cpp_items, simple_items;
    for (size_t i = 0; i < items.size(); ++i) {
        std::string cpp_item = items[i], simple_item = items[i];
        if (binding.carrier == Carrier::BoolArray) cpp_item = simple_item = bool_literal(items[i]);
        if (binding.carrier == Carrier::F64Array) {
            cpp_item = float_cpp(items[i]);
            simple_item = float_simple(items[i]);
        }
        cpp_items += (i ? ", " : "") + cpp_item;
        simple_items += (i ? ", " : "") + simple_item;
    }
    switch (binding.carrier) {
    case Carrier::I64Array: elem_c = "int64_t"; break;
    case Carrier::F64Array: elem_c = "double"; break;
    case Carrier::BoolArray: elem_c = "bool"; break;
    default:
        throw std::runtime_error("argument " + arg.name + ": cannot express default '" + d + "' of type " +
                                 arg.type.str());
    }
    if (items.empty()) return same(c + "{nullptr, 0}", "[]");
    return {c + "{" + array_name + ", " + std::to_string(items.size()) + "}",
            "static const " + elem_c + " " + array_name + "[] = {" + cpp_items + "};", "[" + simple_items + "]",
            "[" + simple_items + "]"};
}

const std::vector<ArgBinding>& argument_table() { return kArguments; }
const std::vector<ReturnBinding>& return_table() { return kReturns; }

CountedType counted_type(const Type& type) {
    if (type.base == "Generator") return CountedType::Generator;
    if (type.base == "Dimname") return CountedType::Dimname;
    if (type.base == "MemoryFormat") return CountedType::MemoryFormat;
    return CountedType::Other;
}

} // namespace codegen::api
