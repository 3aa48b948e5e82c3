// LibTorch's process-wide settings that PyTorch's top-level functions read and change
// (torch.use_deterministic_algorithms, set_float32_matmul_precision, set_num_interop_threads,
// set_flush_denormal, set_warn_always, set_default_dtype, has_lapack ...), and the tensor
// printing with set_printoptions's values: lib.torch.settings keeps those values.
#include "core/enum_names.h"
#include "core/libtorch_compat.h"
#include "extras/extra_function.h"
#include "extras/format/tensor_repr.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <c10/core/DefaultDtype.h>
#include <c10/util/Exception.h>

namespace {

const char* precision_name(at::Float32MatmulPrecision precision) {
    switch (precision) {
    case at::Float32MatmulPrecision::HIGHEST: return "highest";
    case at::Float32MatmulPrecision::HIGH: return "high";
    case at::Float32MatmulPrecision::MEDIUM: return "medium";
    }
    return "highest";
}

} // namespace

extern "C" {

// torch.use_deterministic_algorithms(mode, warn_only=...): _C._set_deterministic_algorithms.
SPL_TORCH_EXPORT void rt_torch_use_deterministic_algorithms(bool mode, bool warn_only) {
    spl::guarded<void>(__func__, [&] { at::globalContext().setDeterministicAlgorithms(mode, warn_only); });
}

SPL_TORCH_EXPORT bool rt_torch_deterministic_algorithms_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return at::globalContext().deterministicAlgorithms(); });
}

SPL_TORCH_EXPORT bool rt_torch_deterministic_algorithms_warn_only(void) {
    return spl::guarded<bool>(__func__, [&] { return at::globalContext().deterministicAlgorithmsWarnOnly(); });
}

// "highest", "high" or "medium"; another text warns and changes nothing, as in PyTorch.
SPL_TORCH_EXPORT void rt_torch_set_float32_matmul_precision(const char* precision) {
    spl::guarded<void>(__func__, [&] { at::globalContext().setFloat32MatmulPrecision(precision); });
}

SPL_TORCH_EXPORT const char* rt_torch_float32_matmul_precision(void) {
    return spl::guarded<const char*>(__func__,
                                     [&] { return precision_name(at::globalContext().float32MatmulPrecision()); });
}

// torch.set_num_interop_threads: once, before any inter-op parallel work (ATen's error after).
SPL_TORCH_EXPORT void rt_torch_set_num_interop_threads(int64_t n) {
    spl::guarded<void>(__func__, [&] {
        TORCH_CHECK(n > 0, "set_num_interop_threads expects a positive integer");
        at::set_num_interop_threads(static_cast<int>(n));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_get_num_interop_threads(void) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(at::get_num_interop_threads()); });
}

SPL_TORCH_EXPORT void rt_torch_init_num_threads(void) {
    spl::guarded<void>(__func__, [&] { at::init_num_threads(); });
}

// Whether this CPU supports flushing denormals (SSE3), as torch.set_flush_denormal returns.
SPL_TORCH_EXPORT bool rt_torch_set_flush_denormal(bool on) {
    return spl::guarded<bool>(__func__, [&] { return at::globalContext().setFlushDenormal(on); });
}

// What LibTorch was built with: "lapack", "mkl", "openmp" (torch.has_lapack ...).
SPL_TORCH_EXPORT bool rt_torch_built_with(const char* feature) {
    return spl::guarded<bool>(__func__, [&] {
        const std::string name(feature);
        if (name == "lapack") return at::hasLAPACK();
        if (name == "mkl") return at::hasMKL();
        if (name == "openmp") return at::hasOpenMP();
        TORCH_CHECK(false, "built_with: unknown feature \"", name, "\" (lapack, mkl, openmp)");
    });
}

// c10's warn-always switch: c10::WarningUtils' since 2.0, c10::Warning's before.
#if SPL_TORCH_AT_LEAST(2, 0)
#define SPL_WARN_ALWAYS c10::WarningUtils
#else
#define SPL_WARN_ALWAYS c10::Warning
#endif

SPL_TORCH_EXPORT void rt_torch_set_warn_always(bool on) {
    spl::guarded<void>(__func__, [&] { SPL_WARN_ALWAYS::set_warnAlways(on); });
}

SPL_TORCH_EXPORT bool rt_torch_warn_always_enabled(void) {
    return spl::guarded<bool>(__func__, [&] { return SPL_WARN_ALWAYS::get_warnAlways(); });
}

// torch.set_default_dtype: the floating dtype ATen's factories use when none is given, with
// PyTorch's checks (its Python binding refuses a non-floating dtype, and a float8 dtype, which
// has no Python storage class).
SPL_TORCH_EXPORT void rt_torch_set_default_dtype(const char* dtype) {
    spl::guarded<void>(__func__, [&] {
        const c10::ScalarType type = spl::parse_dtype(dtype);
        TORCH_CHECK_TYPE(c10::isFloatingType(type), "only floating-point types are supported as the default type");
        TORCH_CHECK_TYPE(type == c10::kHalf || type == c10::kFloat || type == c10::kDouble || type == c10::kBFloat16,
                         "couldn't find storage object ", c10::toString(type), "Storage");
        c10::set_default_dtype(caffe2::TypeMeta::fromScalarType(type));
    });
}

SPL_TORCH_EXPORT const char* rt_torch_get_default_dtype(void) {
    return spl::guarded<const char*>(__func__, [&] { return spl::dtype_name(c10::get_default_dtype_as_scalartype()); });
}

// str(t) under torch.set_printoptions(precision, threshold, edgeitems, linewidth, sci_mode);
// sci_mode 1 or 0 fixes scientific notation on or off, -1 lets the values decide (None).
SPL_TORCH_EXPORT const char* rt_torch_format_with_options(int64_t t, int64_t precision, int64_t threshold,
                                                          int64_t edgeitems, int64_t linewidth, int64_t sci_mode) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::format::PrintOptions options;
        options.precision = static_cast<int>(precision);
        options.threshold = threshold;
        options.edgeitems = edgeitems;
        options.linewidth = linewidth;
        TORCH_CHECK(sci_mode >= -1 && sci_mode <= 1, "format_with_options: sci_mode is -1, 0 or 1, got ", sci_mode);
        options.sci_mode = static_cast<int>(sci_mode);
        const std::string text = spl::format::tensor_repr(spl::tensor(t, "t"), options);
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(text);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_use_deterministic_algorithms, "mode", "warn_only")
SPL_EXTRA(rt_torch_deterministic_algorithms_enabled)
SPL_EXTRA(rt_torch_deterministic_algorithms_warn_only)
SPL_EXTRA(rt_torch_set_float32_matmul_precision, "precision")
SPL_EXTRA(rt_torch_float32_matmul_precision)
SPL_EXTRA(rt_torch_set_num_interop_threads, "n")
SPL_EXTRA(rt_torch_get_num_interop_threads)
SPL_EXTRA(rt_torch_init_num_threads)
SPL_EXTRA(rt_torch_set_flush_denormal, "on")
SPL_EXTRA(rt_torch_built_with, "feature")
SPL_EXTRA(rt_torch_set_warn_always, "on")
SPL_EXTRA(rt_torch_warn_always_enabled)
SPL_EXTRA(rt_torch_set_default_dtype, "dtype")
SPL_EXTRA(rt_torch_get_default_dtype)
SPL_EXTRA(rt_torch_format_with_options, "t", "precision", "threshold", "edgeitems", "linewidth", "sci_mode")
