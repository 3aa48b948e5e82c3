#include "core/enum_names.h"

#include "core/error_guard.h"
#include "core/libtorch_compat.h"

#include <array>
#include <utility>

namespace spl {
namespace {

// One table per enum: canonical name first, then the aliases PyTorch accepts
// (torch.long is torch.int64, and so on).
struct DtypeName { std::string_view name; c10::ScalarType value; };
const DtypeName kDtypes[] = {
    {"float32", c10::ScalarType::Float},  {"float64", c10::ScalarType::Double},
    {"float16", c10::ScalarType::Half},   {"bfloat16", c10::ScalarType::BFloat16},
    {"int64", c10::ScalarType::Long},     {"int32", c10::ScalarType::Int},
    {"int16", c10::ScalarType::Short},    {"int8", c10::ScalarType::Char},
    {"uint8", c10::ScalarType::Byte},     {"bool", c10::ScalarType::Bool},
    {"complex64", c10::ScalarType::ComplexFloat}, {"complex128", c10::ScalarType::ComplexDouble},
    {"complex32", c10::ScalarType::ComplexHalf},
    {"qint8", c10::ScalarType::QInt8},    {"quint8", c10::ScalarType::QUInt8},
    {"qint32", c10::ScalarType::QInt32},
#if SPL_TORCH_HAS_FLOAT8
    {"float8_e4m3fn", c10::ScalarType::Float8_e4m3fn}, {"float8_e5m2", c10::ScalarType::Float8_e5m2},
#endif
    // aliases
    {"float", c10::ScalarType::Float},    {"double", c10::ScalarType::Double},
    {"half", c10::ScalarType::Half},      {"long", c10::ScalarType::Long},
    {"int", c10::ScalarType::Int},        {"short", c10::ScalarType::Short},
    {"cfloat", c10::ScalarType::ComplexFloat}, {"cdouble", c10::ScalarType::ComplexDouble},
    {"chalf", c10::ScalarType::ComplexHalf}, {"f32", c10::ScalarType::Float},
    {"f64", c10::ScalarType::Double},
};
constexpr size_t kCanonicalDtypes = SPL_TORCH_HAS_FLOAT8 ? 18 : 16;

template <class Table>
[[noreturn]] void unknown(const char* kind, std::string_view name, const Table& table, size_t canonical) {
    std::string message = std::string("unknown ") + kind + " '" + std::string(name) + "'; valid names: ";
    for (size_t i = 0; i < canonical; ++i) {
        if (i) message += ", ";
        message += table[i].name;
    }
    throw SplError(message);
}

struct LayoutName { std::string_view name; c10::Layout value; };
constexpr std::array<LayoutName, 7> kLayouts{{
    {"strided", c10::kStrided}, {"sparse_coo", c10::kSparse}, {"sparse_csr", c10::kSparseCsr},
    {"sparse_csc", c10::kSparseCsc}, {"sparse_bsr", c10::kSparseBsr}, {"sparse_bsc", c10::kSparseBsc},
    {"mkldnn", c10::kMkldnn},
}};

struct FormatName { std::string_view name; c10::MemoryFormat value; };
constexpr std::array<FormatName, 4> kFormats{{
    {"contiguous_format", c10::MemoryFormat::Contiguous}, {"preserve_format", c10::MemoryFormat::Preserve},
    {"channels_last", c10::MemoryFormat::ChannelsLast}, {"channels_last_3d", c10::MemoryFormat::ChannelsLast3d},
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

c10::ScalarType parse_dtype(std::string_view name) { return parse_name("dtype", name, kDtypes, kCanonicalDtypes); }

const char* dtype_name(c10::ScalarType type) {
    // Canonical names come first in kDtypes, so the first match is the one to show.
    const char* name = name_of(kDtypes, type);
    return std::string_view(name) == "unknown" ? c10::toString(type) : name;
}

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

c10::Device parse_device(std::string_view name) {
    try {
        return c10::Device(std::string(name));
    } catch (const c10::Error&) {
        throw SplError("unknown device '" + std::string(name) +
                       "'; valid names: cpu, cuda, cuda:N, meta, mps, xpu (N a device index)");
    }
}

std::string device_name(const c10::Device& device) { return device.str(); }

} // namespace spl
