// Port of _tensor_str.py's _str_intern and rt_torch_format: str(t) as Python prints it.
#include "extras/format/tensor_repr.h"

#include "core/enum_names.h"
#include "abi/error_guard.h"
#include "core/handle_table.h"
#include "core/results.h"
#include "extras/extra_function.h"
#include "extras/format/python_text.h"
#include "extras/format/sparse_body.h"
#include "extras/format/tensor_body.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/unbind.h>
#include <c10/core/DefaultDtype.h>
#include <torch/csrc/autograd/function.h>

#include <optional>
#include <vector>

namespace spl::format {

namespace {

std::string dtype_text(c10::ScalarType type) { return std::string("torch.") + spl::dtype_name(type); }

// str(layout): PyTorch's Python name of the MKL-DNN layout is private.
std::string layout_text(c10::Layout layout) {
    return layout == c10::kMkldnn ? "torch._mkldnn" : std::string("torch.") + spl::layout_name(layout);
}

c10::ScalarType default_dtype() { return c10::typeMetaToScalarType(c10::get_default_dtype()); }

// _add_suffixes: each suffix follows ", " on the last line, or starts a new
// line at `indent` when it would pass linewidth. (The "+ 1" in the last line's
// length is PyTorch's: it counts one more than the characters after the last
// newline, and the wrapping depends on it.)
std::string with_suffixes(const std::string& text, const std::vector<std::string>& suffixes, int64_t indent,
                          bool force_newline, const PrintOptions& options) {
    std::string out = text;
    const size_t last_newline = text.rfind('\n');
    int64_t last_line_len = static_cast<int64_t>(text.size()) -
                            (last_newline == std::string::npos ? -1 : static_cast<int64_t>(last_newline)) + 1;
    for (const std::string& suffix : suffixes) {
        const auto suffix_len = static_cast<int64_t>(suffix.size());
        if (force_newline || last_line_len + suffix_len + 2 > options.linewidth) {
            out += ",\n" + std::string(static_cast<size_t>(indent), ' ') + suffix;
            last_line_len = indent + suffix_len;
            force_newline = false;
        } else {
            out += ", " + suffix;
            last_line_len += suffix_len + 2;
        }
    }
    return out + ")";
}

// type(grad_fn).__name__: the node's class without its C++ namespaces
// ("torch::autograd::generated::AddBackward0" -> "AddBackward0").
std::string grad_fn_name(const torch::autograd::Node& node) {
    const std::string name = node.name();
    const size_t colons = name.rfind("::");
    return colons == std::string::npos ? name : name.substr(colons + 2);
}

// The grad_fn suffix's name, or nullopt without one. Reading grad_fn can
// fail: for a view made in no_grad mode whose base was then changed in place,
// LibTorch refuses to rebase it. PyTorch prints that tensor with
// grad_fn=<Invalid> rather than failing to print, and so does the port.
std::optional<std::string> grad_fn_text(const at::Tensor& tensor) {
    try {
        const auto& grad_fn = tensor.grad_fn(); // a shared_ptr in 1.13, an intrusive_ptr in 2.x
        if (!grad_fn) return std::nullopt;
        return grad_fn_name(*grad_fn);
    } catch (const c10::Error&) {
        return "Invalid";
    }
}

// nested_tensor([...]): each component's own text, every line indented by two.
// The components come from the tensor given, not a detached alias: PyTorch
// shows their requires_grad=True when the nested tensor requires grad.
std::string nested_body(const at::Tensor& nested, const PrintOptions& options) {
    std::string out = "[\n";
    const std::vector<at::Tensor> parts = at::unbind(nested, 0);
    for (size_t i = 0; i < parts.size(); ++i) {
        const std::string text = tensor_repr(parts[i], options);
        out += (i ? ",\n  " : "  ");
        for (char c : text) out += c == '\n' ? std::string("\n  ") : std::string(1, c);
    }
    return out + "\n]";
}

// The quantized branch: the dequantized values, after the size, dtype and
// quantization parameters (a per-channel tensor shows its scale and zero
// point tensors in full).
std::string quantized_body(const at::Tensor& self, int64_t indent, bool has_default_dtype,
                           std::vector<std::string>& suffixes, const PrintOptions& options) {
    suffixes.push_back("size=" + python_tuple(self.sizes()));
    if (!has_default_dtype) suffixes.push_back("dtype=" + dtype_text(self.scalar_type()));
    const c10::QScheme scheme = self.qscheme();
    suffixes.push_back(std::string("quantization_scheme=torch.") + spl::qscheme_name(scheme));
    if (scheme == c10::kPerTensorAffine || scheme == c10::kPerTensorSymmetric) {
        suffixes.push_back("scale=" + python_float_repr(self.q_scale()));
        suffixes.push_back("zero_point=" + std::to_string(self.q_zero_point()));
    } else {
        suffixes.push_back("scale=" + tensor_repr(self.q_per_channel_scales(), options));
        suffixes.push_back("zero_point=" + tensor_repr(self.q_per_channel_zero_points(), options));
        suffixes.push_back("axis=" + std::to_string(self.q_per_channel_axis()));
    }
    return tensor_body(self.dequantize(), indent, options);
}

} // namespace

std::string tensor_repr(const at::Tensor& inp, const PrintOptions& options) {
    // Printing reads values with tensor operations; none of them is recorded (Python runs under no_grad).
    const at::NoGradGuard no_grad;
    const at::Tensor self = inp.detach();
    const std::string prefix = self.is_nested() ? "nested_tensor(" : "tensor(";
    const auto indent = static_cast<int64_t>(prefix.size());
    std::vector<std::string> suffixes;

    // Note [Print tensor device]: the device is shown unless it is the default
    // one (LibTorch has no set_default_device: always the CPU).
    if (self.device().type() != c10::kCPU) suffixes.push_back("device='" + self.device().str() + "'");

    const c10::ScalarType type = self.scalar_type();
    const c10::ScalarType default_complex = default_dtype() == c10::kDouble ? c10::kComplexDouble : c10::kComplexFloat;
    const bool has_default_dtype =
        type == default_dtype() || type == default_complex || type == c10::kLong || type == c10::kBool;

    std::string body;
    if (is_sparse_layout(self)) {
        body = sparse_body(self, indent, has_default_dtype, suffixes, options);
    } else if (self.is_quantized()) {
        body = quantized_body(self, indent, has_default_dtype, suffixes, options);
    } else if (self.is_nested()) {
        body = nested_body(inp, options);
    } else if (self.is_meta()) {
        // No values to show: PyTorch prints "..." and the size.
        suffixes.push_back("size=" + python_tuple(self.sizes()));
        if (type != default_dtype()) suffixes.push_back("dtype=" + dtype_text(type));
        body = "...";
    } else if (self.numel() == 0) {
        // Explicitly print the shape if it is not (0,), to match NumPy; and the
        // dtype unless it is the default float, since no element shows it.
        if (self.dim() != 1) suffixes.push_back("size=" + python_tuple(self.sizes()));
        if (type != default_dtype()) suffixes.push_back("dtype=" + dtype_text(type));
        body = "[]";
    } else {
        if (options.edgeitems == 0) suffixes.push_back("size=" + python_tuple(self.sizes()));
        if (!has_default_dtype) suffixes.push_back("dtype=" + dtype_text(type));
        body = tensor_body(self.layout() == c10::kStrided ? self : self.to_dense(), indent, options);
    }
    if (self.layout() != c10::kStrided && !self.is_nested()) suffixes.push_back("layout=" + layout_text(self.layout()));

    // grad_fn and requires_grad belong to the tensor given, not to its detached alias.
    if (const std::optional<std::string> name = grad_fn_text(inp))
        suffixes.push_back("grad_fn=<" + *name + ">");
    else if (inp.requires_grad())
        suffixes.push_back("requires_grad=True");

    // A COO tensor's body ends in its values; the suffixes start on a new line.
    return with_suffixes(prefix + body, suffixes, indent, /*force_newline=*/self.is_sparse(), options);
}

} // namespace spl::format

extern "C" SPL_TORCH_EXPORT const char* rt_torch_format(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::format::tensor_repr(spl::tensor(t, "tensor")));
    });
}

SPL_EXTRA(rt_torch_format, "t")
