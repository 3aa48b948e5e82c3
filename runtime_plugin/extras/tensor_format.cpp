// Tensor text the way Python PyTorch prints it: `tensor([[1., 2.],\n        [3., 4.]])`.
#include "extras/extra_function.h"

#include <torch/csrc/autograd/function.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace {

// How every element of one tensor is written, chosen once from all values
// (as PyTorch's _Formatter does) so that columns line up.
class ElementFormat {
public:
    explicit ElementFormat(const at::Tensor& values) {
        kind_ = values.scalar_type() == c10::kBool ? Kind::boolean
                : c10::isIntegralType(values.scalar_type(), false) ? Kind::integer
                                                                   : Kind::floating;
        const at::Tensor flat = values.reshape({-1});
        const int64_t n = flat.numel();
        if (kind_ == Kind::floating) {
            const double* data = flat.data_ptr<double>();
            double max_abs = 0, min_abs = INFINITY;
            bool all_integral = true;
            for (int64_t i = 0; i < n; ++i) {
                const double v = data[i];
                if (!std::isfinite(v)) continue;
                all_integral = all_integral && v == std::nearbyint(v);
                if (v != 0) { max_abs = std::max(max_abs, std::fabs(v)); min_abs = std::min(min_abs, std::fabs(v)); }
            }
            if (all_integral && max_abs < 1e8) float_style_ = FloatStyle::integral;
            else if (max_abs >= 1e8 || (min_abs < 1e-4 && min_abs > 0) || (max_abs / min_abs > 1000 && min_abs > 0))
                float_style_ = FloatStyle::scientific;
            else float_style_ = FloatStyle::fixed;
        }
        for (int64_t i = 0; i < n; ++i) width_ = std::max(width_, text(flat, i).size());
    }

    std::string text(const at::Tensor& flat, int64_t i) const {
        char buffer[64];
        switch (kind_) {
        case Kind::boolean: return flat.data_ptr<bool>()[i] ? "True" : "False";
        case Kind::integer: return std::to_string(flat.data_ptr<int64_t>()[i]);
        case Kind::floating: break;
        }
        const double v = flat.data_ptr<double>()[i];
        if (std::isnan(v)) return "nan";
        if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
        switch (float_style_) {
        case FloatStyle::integral: std::snprintf(buffer, sizeof buffer, "%.0f.", v); break;
        case FloatStyle::scientific: std::snprintf(buffer, sizeof buffer, "%.4e", v); break;
        case FloatStyle::fixed: std::snprintf(buffer, sizeof buffer, "%.4f", v); break;
        }
        return buffer;
    }

    std::string padded(const at::Tensor& flat, int64_t i) const {
        std::string s = text(flat, i);
        return std::string(width_ - std::min(width_, s.size()), ' ') + s;
    }

private:
    enum class Kind { boolean, integer, floating } kind_;
    enum class FloatStyle { integral, fixed, scientific } float_style_ = FloatStyle::fixed;
    size_t width_ = 0;
};

void write_block(std::ostream& out, const at::Tensor& t, const at::Tensor& flat, int64_t& next,
                 const ElementFormat& format, size_t indent) {
    if (t.dim() == 0) {
        out << format.text(flat, next++);
        return;
    }
    out << '[';
    const int64_t n = t.size(0);
    for (int64_t i = 0; i < n; ++i) {
        if (t.dim() == 1) {
            out << (i ? ", " : "") << format.padded(flat, next++);
            continue;
        }
        if (i) out << ',' << std::string(t.dim() - 1, '\n') << std::string(indent + 1, ' ');
        write_block(out, t[i], flat, next, format, indent + 1);
    }
    out << ']';
}

std::string format_tensor(const at::Tensor& tensor) {
    const at::Tensor t = tensor.detach();
    const bool is_bool = t.scalar_type() == c10::kBool;
    const bool is_int = !is_bool && c10::isIntegralType(t.scalar_type(), false);
    const at::Tensor host = t.to(c10::kCPU, is_bool ? c10::kBool : is_int ? c10::kLong : c10::kDouble).contiguous();
    const at::Tensor flat = host.reshape({-1});
    const ElementFormat format(host);
    std::ostringstream out;
    out << "tensor(";
    int64_t next = 0;
    if (t.numel() == 0 && t.dim() > 0) out << "[]";
    else write_block(out, host, flat, next, format, 7);
    if (t.device().type() != c10::kCPU) out << ", device='" << t.device().str() << "'";
    const auto type = t.scalar_type();
    if (type != c10::kFloat && type != c10::kLong && type != c10::kBool)
        out << ", dtype=torch." << spl::dtype_name(type);
    if (tensor.requires_grad() && !tensor.grad_fn()) out << ", requires_grad=True";
    if (tensor.grad_fn()) out << ", grad_fn=<" << tensor.grad_fn()->name() << ">";
    out << ")";
    return out.str();
}

} // namespace

extern "C" SPL_TORCH_EXPORT const char* rt_torch_format(int64_t t) {
    return spl::guarded<const char*>(__func__, [&] { spl::ResultArena::current().reset(); return spl::ResultArena::current().text(format_tensor(spl::tensor(t, "tensor"))); });
}

SPL_EXTRA(rt_torch_format, "extern fn rt_torch_format(t: i64) -> text", "text", {"t", "i64", nullptr})
