// The one table: how each schema type maps to the C ABI, the C++ conversion and Simple (layer 2).
#include "api/type_table.h"

#include "api/text_template.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace codegen::api {
namespace {

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
// key           C parameter    Simple    BoxedArgs    to ATen    lib.torch type, lib.torch -> extern
const std::vector<ArgBinding> kArguments = {
    {"Tensor",       "int64_t",      "i64",     "handle",    "spl::tensor({v}, {n})", "Tensor", "{v}.h"},
    {"Tensor?",      "int64_t",      "i64",     "handle",    "spl::opt_tensor({v}, {n})", "Tensor?", "opt_handle({v})"},
    {"Tensor[]",     "SplI64Array",  "[i64]",   "i64_list",  "spl::tensor_list({v}, {n})", "[Tensor]", "handles({v})"},
    {"Tensor?[]",    "SplI64Array",  "[i64]",   "i64_list",  "spl::opt_tensor_list({v}, {n})", "[Tensor?]", "opt_handles({v})"},
    {"int",          "int64_t",      "i64",     "i64",       "{v}", "i64", "{v}"},
    {"int?",         "SplValue",     "i64?",    "value",     "spl::opt_int({v}, {n})", "i64?", "{v}"},
    {"int[]",        "SplI64Array",  "[i64]",   "i64_list",  "spl::int_list({v}, {n})", "[i64]", "{v}"},
    {"int[]?",       "SplI64Array",  "[i64]?",  "i64_list",  "spl::opt_int_list({v}, {n})", "[i64]?", "{v}"},
    {"SymInt",       "int64_t",      "i64",     "i64",       "spl::sym_int({v})", "i64", "{v}"},
    {"SymInt?",      "SplValue",     "i64?",    "value",     "spl::opt_sym_int({v}, {n})", "i64?", "{v}"},
    {"SymInt[]",     "SplI64Array",  "[i64]",   "i64_list",  "spl::sym_int_list({v}, {n})", "[i64]", "{v}"},
    {"SymInt[]?",    "SplI64Array",  "[i64]?",  "i64_list",  "spl::opt_sym_int_list({v}, {n})", "[i64]?", "{v}"},
    {"DeviceIndex",  "int64_t",      "i64",     "i64",       "spl::device_index({v})", "i64", "{v}"},
    {"float",        "double",       "f64",     "f64",       "{v}", "f64", "{v}"},
    {"float?",       "SplValue",     "f64?",    "value",     "spl::opt_float({v}, {n})", "f64?", "{v}"},
    {"float[]?",     "SplF64Array",  "[f64]?",  "f64_list",  "spl::opt_float_list({v}, {n})", "[f64]?", "{v}"},
    {"bool",         "bool",         "bool",    "boolean",   "{v}", "bool", "{v}"},
    {"bool?",        "SplValue",     "bool?",   "value",     "spl::opt_bool({v}, {n})", "bool?", "{v}"},
    {"bool[N]",      "SplBoolArray", "[bool]",  "bool_list", "spl::bool_array<{N}>({v}, {n})", "[bool]", "{v}"},
    {"str",          "const char*",  "text",    "text",      "spl::text({v}, {n})", "text", "{v}"},
    {"str?",         "const char*",  "text?",   "text",      "spl::opt_text({v})", "text?", "{v}"},
    {"Scalar",       "SplValue",     "any",     "value",     "spl::scalar({v}, {n})", "Scalar", "{v}"},
    {"Scalar?",      "SplValue",     "any?",    "value",     "spl::opt_scalar({v}, {n})", "Scalar?", "{v}"},
    {"Scalar[]",     "SplArray",     "[any]",   "array",     "spl::scalar_list({v}, {n})", "[Scalar]", "{v}"},
    {"ScalarType",   "const char*",  "text",    "text",      "spl::dtype({v}, {n})", "text", "{v}"},
    {"ScalarType?",  "const char*",  "text?",   "text",      "spl::opt_dtype({v}, {n})", "text?", "{v}"},
    {"Layout",       "const char*",  "text",    "text",      "spl::layout({v}, {n})", "text", "{v}"},
    {"Layout?",      "const char*",  "text?",   "text",      "spl::opt_layout({v}, {n})", "text?", "{v}"},
    {"MemoryFormat", "const char*",  "text",    "text",      "spl::memory_format({v}, {n})", "text", "{v}"},
    {"MemoryFormat?","const char*",  "text?",   "text",      "spl::opt_memory_format({v}, {n})", "text?", "{v}"},
    {"Device",       "const char*",  "text",    "text",      "spl::device({v}, {n})", "text", "{v}"},
    {"Device?",      "const char*",  "text?",   "text",      "spl::opt_device({v}, {n})", "text?", "{v}"},
    {"Generator?",   "SplValue",     "i64?",    "value",     "spl::opt_generator({v}, {n})", "i64?", "{v}"},
    {"Dimname",      "const char*",  "text",    "text",      "spl::dimname({v}, {n})", "text", "{v}"},
    {"Dimname[]",    "SplTextArray", "[text]",  "text_list", "spl::dimname_list({v}, {n})", "[text]", "{v}"},
    {"Dimname[]?",   "SplTextArray", "[text]?", "text_list", "spl::opt_dimname_list({v}, {n})", "[text]?", "{v}"},
};

// key          C return     Simple   ATen -> typed ABI                 ATen -> boxed    lib.torch type, extern -> lib.torch
const std::vector<ReturnBinding> kReturns = {
    {"Tensor",     "int64_t",     "i64",   "spl::new_handle({r})",       "spl::v_i64(spl::new_handle({r}))", "Tensor", "Tensor(h: {r})"},
    {"Tensor[]",   "SplValue",    "[i64]", "spl::tensor_list_value({r})", "spl::tensor_list_value({r})", "[Tensor]", "Tensor.wrap_all({r})"},
    {"int[]",      "SplValue",    "[i64]", "spl::int_list_value({r})",    "spl::int_list_value({r})", "[i64]", "{r}"},
    {"int",        "int64_t",     "i64",   "{r}",                        "spl::v_i64({r})", "i64", "{r}"},
    {"SymInt",     "int64_t",     "i64",   "spl::sym_int_value({r})",    "spl::v_i64(spl::sym_int_value({r}))", "i64", "{r}"},
    {"float",      "double",      "f64",   "{r}",                        "spl::v_f64({r})", "f64", "{r}"},
    {"bool",       "bool",        "bool",  "{r}",                        "spl::v_bool({r})", "bool", "{r}"},
    {"SymBool",    "bool",        "bool",  "spl::sym_bool_value({r})",   "spl::v_bool(spl::sym_bool_value({r}))", "bool", "{r}"},
    {"Scalar",     "SplValue",    "any",   "spl::scalar_value({r})",     "spl::scalar_value({r})", "Scalar", "{r}"},
    {"ScalarType", "const char*", "text",  "spl::dtype_value({r})",      "spl::v_text(spl::dtype_value({r}))", "text", "{r}"},
    {"QScheme",    "const char*", "text",  "spl::qscheme_value({r})",    "spl::v_text(spl::qscheme_value({r}))", "text", "{r}"},
};
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
        {"long", "int64"}, {"float", "float32"}, {"double", "float64"}, {"int", "int32"},
        {"half", "float16"}, {"bool", "bool"}, {"uint8", "uint8"}};
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

DefaultBinding bind_default(const Argument& arg, const std::string& array_name) {
    const std::string& d = *arg.default_value;
    const ArgBinding binding = *bind_argument(arg.type, nullptr);
    const std::string& c = binding.c_type;

    if (d == "None") {
        if (binding.key == "Tensor?") return {"int64_t(0)", "", "0"};
        if (c == "SplValue") return {"spl::v_nil()", "", "nil"};
        if (c == "const char*") return {"static_cast<const char*>(nullptr)", "", "nil"};
        return {c + "{nullptr, -1}", "", "nil"};
    }
    if (c == "int64_t") return {"int64_t(" + int_literal(d) + ")", "", int_literal(d)};
    if (c == "double") return {float_cpp(d), "", float_simple(d)};
    if (c == "bool") return {bool_literal(d), "", bool_literal(d)};
    if (c == "SplValue") {
        if (d == "True" || d == "False") return {"spl::v_bool(" + bool_literal(d) + ")", "", bool_literal(d)};
        if (binding.key.rfind("float", 0) == 0 || looks_float(d))
            return {"spl::v_f64(" + float_cpp(d) + ")", "", float_simple(d)};
        return {"spl::v_i64(" + int_literal(d) + ")", "", int_literal(d)};
    }
    if (c == "const char*") {
        std::string value = unquote(d);
        if (binding.key.rfind("ScalarType", 0) == 0) value = dtype_literal(value);
        return {quoted(value), "", quoted(value)};
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
        if (c == "SplBoolArray") cpp_item = simple_item = bool_literal(items[i]);
        if (c == "SplF64Array") { cpp_item = float_cpp(items[i]); simple_item = float_simple(items[i]); }
        cpp_items += (i ? ", " : "") + cpp_item;
        simple_items += (i ? ", " : "") + simple_item;
    }
    if (c == "SplI64Array") elem_c = "int64_t";
    else if (c == "SplF64Array") elem_c = "double";
    else if (c == "SplBoolArray") elem_c = "bool";
    else throw std::runtime_error("argument " + arg.name + ": cannot express default '" + d + "' of type " +
                                  arg.type.str());
    if (items.empty()) return {c + "{nullptr, 0}", "", "[]"};
    return {c + "{" + array_name + ", " + std::to_string(items.size()) + "}",
            "static const " + elem_c + " " + array_name + "[] = {" + cpp_items + "};", "[" + simple_items + "]"};
}

const std::vector<ArgBinding>& argument_table() { return kArguments; }
const std::vector<ReturnBinding>& return_table() { return kReturns; }

} // namespace codegen::api
