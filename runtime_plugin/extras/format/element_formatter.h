// Port of torch/_tensor_str.py's `_Formatter`: one look at every element to be
// shown decides how all of them are written (integer mode, scientific mode,
// a common width), so that columns line up.
#pragma once

#include "extras/format/print_options.h"

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace spl::format {

class ElementFormatter {
public:
    // `shown` holds the elements that will be printed (get_summarized_data's
    // result when summarizing); it must be real (complex tensors get one
    // formatter for their real and one for their imaginary part).
    explicit ElementFormatter(const at::Tensor& shown, const PrintOptions& options = kPrintOptions);

    // _Formatter.width(): every formatted element is at least this wide.
    size_t width() const { return max_width_; }

    // _Formatter.format() of each element of `values` (any shape, read in
    // row-major order, as tolist() would give them), left-padded to width().
    std::vector<std::string> format(const at::Tensor& values) const;

private:
    std::string format_float(double value) const;
    std::string padded(std::string text) const;

    PrintOptions options_;
    bool floating_dtype_;
    bool int_mode_ = true;
    bool sci_mode_ = false;
    size_t max_width_ = 1;
};

} // namespace spl::format
