// Typed-ABI arguments -> ATen arguments. One function per schema type; the
// generator's type table names these functions. Each throws SplError naming
// the parameter when the value cannot be converted.
#pragma once

#include "spl_plugin.h"
#include "core/enum_names.h"
#include "abi/error_guard.h"
#include "core/handle_table.h"
#include "core/libtorch_compat.h"

#include <ATen/core/Generator.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/SymInt.h>
#include <c10/core/SymIntArrayRef.h>
#include <c10/util/OptionalArrayRef.h>

// Named tensors (Dimname) left LibTorch in 2.x; older versions still have
// them. The build defines SPL_TORCH_HAS_DIMNAME from the LibTorch it uses
// (__has_include would also find another version's headers in /usr/include).
#ifdef SPL_TORCH_HAS_DIMNAME
#include <ATen/core/Dimname.h>
#endif

#include <array>
#include <c10/util/Optional.h>
#include <string>
#include <string_view>
#include <vector>

namespace spl {

[[noreturn]] void bad_argument(const char* name, const std::string& problem);
// A required list: refuses None (a negative length) and NULL data with a
// positive length, naming the parameter.
void check_list(int64_t len, const void* data, const char* name);

// --- tensors ---------------------------------------------------------------
// Always inlined, as HandleTable::get: a handful of instructions at each tensor argument,
// where a call would add as many again to every operator call.
[[gnu::always_inline]] inline at::Tensor& tensor(int64_t handle, const char* name) {
    return HandleTable::instance().get(handle, name);
}
inline c10::optional<at::Tensor> opt_tensor(int64_t handle, const char* name) {
    if (handle == 0) return c10::nullopt;
    return tensor(handle, name);
}
std::vector<at::Tensor> tensor_list(SplI64Array handles, const char* name);
c10::List<c10::optional<at::Tensor>> opt_tensor_list(SplI64Array handles, const char* name);

// --- integers ----------------------------------------------------------------
inline c10::SymInt sym_int(int64_t v) { return c10::SymInt(v); }
c10::optional<int64_t> opt_int(const SplValue& v, const char* name);
c10::optional<c10::SymInt> opt_sym_int(const SplValue& v, const char* name);
at::IntArrayRef int_list(SplI64Array values, const char* name);
c10::SymIntArrayRef sym_int_list(SplI64Array values, const char* name);
at::OptionalIntArrayRef opt_int_list(SplI64Array values, const char* name);
at::OptionalSymIntArrayRef opt_sym_int_list(SplI64Array values, const char* name);
inline c10::DeviceIndex device_index(int64_t v) { return static_cast<c10::DeviceIndex>(v); }

// --- floats, bools, text -----------------------------------------------------
c10::optional<double> opt_float(const SplValue& v, const char* name);
c10::optional<at::ArrayRef<double>> opt_float_list(SplF64Array values, const char* name);
c10::optional<bool> opt_bool(const SplValue& v, const char* name);
template <size_t N>
std::array<bool, N> bool_array(SplBoolArray values, const char* name) {
    check_list(values.len, values.data, name);
    if (values.len != static_cast<int64_t>(N))
        bad_argument(name, "expected " + std::to_string(N) + " bools, got " + std::to_string(values.len));
    std::array<bool, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = values.data[i];
    return out;
}
// Text a parameter requires: NULL (nil) is an error naming it, never a default.
std::string_view required_text(const char* s, const char* name);
c10::string_view text(const char* s, const char* name);
c10::optional<c10::string_view> opt_text(const char* s);

// --- Scalar: keeps int, float and bool distinct, for type promotion ----------
at::Scalar scalar(const SplValue& v, const char* name);
c10::optional<at::Scalar> opt_scalar(const SplValue& v, const char* name);
std::vector<at::Scalar> scalar_list(SplArray values, const char* name);

// --- names -------------------------------------------------------------------
c10::ScalarType dtype(const char* s, const char* name);
c10::optional<c10::ScalarType> opt_dtype(const char* s, const char* name);
c10::Layout layout(const char* s, const char* name);
c10::optional<c10::Layout> opt_layout(const char* s, const char* name);
c10::MemoryFormat memory_format(const char* s, const char* name);
c10::optional<c10::MemoryFormat> opt_memory_format(const char* s, const char* name);
c10::Device device(const char* s, const char* name);
c10::optional<c10::Device> opt_device(const char* s, const char* name);
#ifdef SPL_TORCH_HAS_DIMNAME
at::Dimname dimname(const char* s, const char* name);
std::vector<at::Dimname> dimname_list(SplTextArray values, const char* name);
// Owns the names and converts to the optional ArrayRef the operators take;
// as a temporary it lives until the call returns.
struct OptDimnameList {
    c10::optional<std::vector<at::Dimname>> names;
    operator c10::optional<at::DimnameList>() const {
        if (!names) return c10::nullopt;
        return at::DimnameList(*names);
    }
};
OptDimnameList opt_dimname_list(SplTextArray values, const char* name);
#endif

// --- Generator?: an optional seed --------------------------------------------
c10::optional<at::Generator> opt_generator(const SplValue& seed, const char* name);

} // namespace spl
