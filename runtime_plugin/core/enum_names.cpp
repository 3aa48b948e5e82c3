// PyTorch's names for dtypes, layouts, memory formats and devices, both ways.
#include "core/enum_names.h"

#include "abi/error_guard.h"
#include "core/shapes_only.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace spl {
namespace {

// One table per enum: canonical name first, then the aliases PyTorch accepts
// (torch.long is torch.int64, and so on).
struct DtypeName {
    std::string name;
    c10::ScalarType value;
};

// PyTorch's Python names (str(dtype) without "torch."). The classic dtypes
// have C-style C++ names (Float, Long, ComplexFloat) and are spelled out here;
// every dtype added since (QInt8, BFloat16, Float8_e4m3fn, UInt16, Bits8,
// Int4, ...) is named in Python as its C++ name in lower case, so those rows
// come from LibTorch's own list of ScalarTypes: whichever LibTorch this is
// built against, each of its dtypes gets PyTorch's name (tests/plugin/
// test_readback.cpp checks every one against Python's spelling).
struct ClassicName {
    const char* name;
    c10::ScalarType value;
};
constexpr ClassicName kClassicDtypes[] = {
    {"float32", c10::ScalarType::Float},
    {"float64", c10::ScalarType::Double},
    {"float16", c10::ScalarType::Half},
    {"bfloat16", c10::ScalarType::BFloat16},
    {"int64", c10::ScalarType::Long},
    {"int32", c10::ScalarType::Int},
    {"int16", c10::ScalarType::Short},
    {"int8", c10::ScalarType::Char},
    {"uint8", c10::ScalarType::Byte},
    {"bool", c10::ScalarType::Bool},
    {"complex64", c10::ScalarType::ComplexFloat},
    {"complex128", c10::ScalarType::ComplexDouble},
    {"complex32", c10::ScalarType::ComplexHalf},
};
constexpr ClassicName kDtypeAliases[] = {
    {"float", c10::ScalarType::Float},
    {"double", c10::ScalarType::Double},
    {"half", c10::ScalarType::Half},
    {"long", c10::ScalarType::Long},
    {"int", c10::ScalarType::Int},
    {"short", c10::ScalarType::Short},
    {"cfloat", c10::ScalarType::ComplexFloat},
    {"cdouble", c10::ScalarType::ComplexDouble},
    {"chalf", c10::ScalarType::ComplexHalf},
    {"f32", c10::ScalarType::Float},
    {"f64", c10::ScalarType::Double},
};

struct DtypeTable {
    std::vector<DtypeName> rows; // canonical names, then aliases
    size_t canonical = 0;
};

DtypeTable build_dtype_table() {
    DtypeTable table;
    for (const ClassicName& c : kClassicDtypes) table.rows.push_back({c.name, c.value});
    const auto named = [&](c10::ScalarType type) {
        for (const DtypeName& row : table.rows)
            if (row.value == type) return true;
        return false;
    };
#define SPL_ADD_DTYPE(_, cpp_name)                                                                                     \
    if (!named(c10::ScalarType::cpp_name)) {                                                                           \
        std::string name = #cpp_name;                                                                                  \
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));                    \
        table.rows.push_back({std::move(name), c10::ScalarType::cpp_name});                                            \
    }
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(SPL_ADD_DTYPE)
#undef SPL_ADD_DTYPE
    table.canonical = table.rows.size();
    for (const ClassicName& a : kDtypeAliases) table.rows.push_back({a.name, a.value});
    // torch.bit is torch.uint1, where this LibTorch has uint1.
    for (size_t i = 0; i < table.canonical; ++i)
        if (table.rows[i].name == "uint1") table.rows.push_back({"bit", table.rows[i].value});
    return table;
}

// Built once, read-only afterwards (a function-local static: thread-safe).
const DtypeTable& dtypes() {
    static const DtypeTable table = build_dtype_table();
    return table;
}

template <class Table>
[[noreturn]] void unknown(const char* kind, std::string_view name, const Table& table, size_t canonical) {
    std::string message = std::string("unknown ") + kind + " '" + std::string(name) + "'; valid names: ";
    for (size_t i = 0; i < canonical; ++i) {
        if (i) message += ", ";
        message += table[i].name;
    }
    throw SplError(message);
}

struct LayoutName {
    std::string_view name;
    c10::Layout value;
};
constexpr std::array<LayoutName, 7> kLayouts{{
    {"strided", c10::kStrided},
    {"sparse_coo", c10::kSparse},
    {"sparse_csr", c10::kSparseCsr},
    {"sparse_csc", c10::kSparseCsc},
    {"sparse_bsr", c10::kSparseBsr},
    {"sparse_bsc", c10::kSparseBsc},
    {"mkldnn", c10::kMkldnn},
}};

struct FormatName {
    std::string_view name;
    c10::MemoryFormat value;
};
constexpr std::array<FormatName, 4> kFormats{{
    {"contiguous_format", c10::MemoryFormat::Contiguous},
    {"preserve_format", c10::MemoryFormat::Preserve},
    {"channels_last", c10::MemoryFormat::ChannelsLast},
    {"channels_last_3d", c10::MemoryFormat::ChannelsLast3d},
}};

// The value named `name` in a table of {name, value} rows, or an error
// listing the first `canonical` names.
template <class Table>
auto parse_name(const char* kind, std::string_view name, const Table& table, size_t canonical) {
    for (const auto& entry : table)
        if (entry.name == name) return entry.value;
    unknown(kind, name, table, canonical);
}

// The first (canonical) name of `value` in a table, or "unknown".
template <class Table, class Value>
const char* name_of(const Table& table, Value value) {
    for (const auto& entry : table)
        if (entry.value == value) return entry.name.data();
    return "unknown";
}

} // namespace

c10::ScalarType parse_dtype(std::string_view name) {
    return parse_name("dtype", name, dtypes().rows, dtypes().canonical);
}

// Canonical names come first in the table, so the first match is the one to
// show; every ScalarType but Undefined has one.
const char* dtype_name(c10::ScalarType type) { return name_of(dtypes().rows, type); }

c10::Layout parse_layout(std::string_view name) { return parse_name("layout", name, kLayouts, kLayouts.size()); }

const char* layout_name(c10::Layout layout) { return name_of(kLayouts, layout); }

c10::MemoryFormat parse_memory_format(std::string_view name) {
    return parse_name("memory format", name, kFormats, kFormats.size());
}

const char* memory_format_name(c10::MemoryFormat format) { return name_of(kFormats, format); }

const char* qscheme_name(c10::QScheme scheme) {
    switch (scheme) {
    case c10::kPerTensorAffine: return "per_tensor_affine";
    case c10::kPerChannelAffine: return "per_channel_affine";
    case c10::kPerTensorSymmetric: return "per_tensor_symmetric";
    case c10::kPerChannelSymmetric: return "per_channel_symmetric";
    case c10::kPerChannelAffineFloatQParams: return "per_channel_affine_float_qparams";
    default: return "unknown";
    }
}

// c10::Device's own parser, whose errors are torch.device's ("Expected one of cpu, cuda, ...
// device type at start of device string: gpu:0", "Invalid device string: 'cuda:x'"). In a
// shapes-only run every device is meta (a program written for CUDA is checked without one).
c10::Device parse_device(std::string_view name) {
    try {
        return made_on(c10::Device(std::string(name)));
    } catch (const c10::Error&) {
        throw SplError(current_exception_text());
    }
}

std::string device_name(const c10::Device& device) { return device.str(); }

} // namespace spl
