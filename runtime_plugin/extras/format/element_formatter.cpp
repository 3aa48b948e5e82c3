// Port of _tensor_str.py's _Formatter: how every shown element is written.
#include "extras/format/element_formatter.h"

#include "extras/format/python_text.h"

#include <ATen/core/Tensor.h>

#include <algorithm>
#include <cmath>

namespace spl::format {

namespace {

// The elements as the Python floats tolist()/item() give (every float dtype
// converts to double exactly).
std::vector<double> float_values(const at::Tensor& values) {
    const at::Tensor flat = values.to(c10::kCPU, c10::kDouble).contiguous().reshape({-1});
    const double* data = flat.data_ptr<double>();
    return std::vector<double>(data, data + flat.numel());
}

// f"{value}" of each element of an integer or bool tensor: Python's int and
// bool texts. uint64 is read as unsigned (its values above 2**63 would turn
// negative through int64); it is the only 8-byte integer type besides int64.
std::vector<std::string> integer_texts(const at::Tensor& values) {
    const at::Tensor cpu = values.to(c10::kCPU).contiguous().reshape({-1});
    std::vector<std::string> texts;
    texts.reserve(static_cast<size_t>(cpu.numel()));
    const c10::ScalarType type = cpu.scalar_type();
    if (type == c10::kBool) {
        const at::Tensor bytes = cpu.to(c10::kByte); // any non-zero byte is True, as in PyTorch
        const uint8_t* data = bytes.data_ptr<uint8_t>();
        for (int64_t i = 0; i < bytes.numel(); ++i) texts.push_back(data[i] ? "True" : "False");
    } else if (c10::isIntegralType(type, false) && type != c10::kLong && c10::elementSize(type) == 8) {
        const auto* data = static_cast<const uint64_t*>(cpu.data_ptr());
        for (int64_t i = 0; i < cpu.numel(); ++i) texts.push_back(std::to_string(data[i]));
    } else {
        const at::Tensor longs = cpu.to(c10::kLong);
        const int64_t* data = longs.data_ptr<int64_t>();
        for (int64_t i = 0; i < longs.numel(); ++i) texts.push_back(std::to_string(data[i]));
    }
    return texts;
}

} // namespace

ElementFormatter::ElementFormatter(const at::Tensor& shown, const PrintOptions& options)
    : options_(options), floating_dtype_(c10::isFloatingType(shown.scalar_type())) {
    if (!floating_dtype_) {
        for (const std::string& text : integer_texts(shown)) max_width_ = std::max(max_width_, text.size());
        return;
    }
    // Only the non-zero finite values decide the mode (zeros, nan and inf fit any).
    std::vector<double> nonzero_finite;
    for (double v : float_values(shown))
        if (std::isfinite(v) && v != 0) nonzero_finite.push_back(v);
    if (nonzero_finite.empty()) return; // no valid number: int mode, width 1

    double min_abs = INFINITY, max_abs = 0;
    for (double v : nonzero_finite) {
        min_abs = std::min(min_abs, std::fabs(v));
        max_abs = std::max(max_abs, std::fabs(v));
        if (v != std::ceil(v)) int_mode_ = false;
    }
    sci_mode_ = options_.sci_mode < 0 ? (max_abs / min_abs > 1000.0 || max_abs > 1.0e8 || min_abs < 1.0e-4)
                                      : options_.sci_mode == 1;

    for (double v : nonzero_finite) {
        size_t length;
        if (sci_mode_)
            length = python_scientific(v, options_.precision).size();
        else if (int_mode_)
            length = python_fixed(v, 0).size() + 1; // the "." that marks a float
        else
            length = python_fixed(v, options_.precision).size();
        max_width_ = std::max(max_width_, length);
    }
}

std::string ElementFormatter::format_float(double value) const {
    if (sci_mode_) return python_scientific(value, options_.precision);
    if (int_mode_) {
        std::string text = python_fixed(value, 0);
        if (std::isfinite(value)) text += '.';
        return text;
    }
    return python_fixed(value, options_.precision);
}

std::string ElementFormatter::padded(std::string text) const {
    if (text.size() < max_width_) text.insert(0, max_width_ - text.size(), ' ');
    return text;
}

std::vector<std::string> ElementFormatter::format(const at::Tensor& values) const {
    std::vector<std::string> texts;
    if (floating_dtype_) {
        for (double v : float_values(values)) texts.push_back(padded(format_float(v)));
    } else {
        for (std::string& text : integer_texts(values)) texts.push_back(padded(std::move(text)));
    }
    return texts;
}

} // namespace spl::format
