// PyTorch's print options (torch/_tensor_str.py, `__PrinterOptions`), at
// their defaults: lib.torch has no set_printoptions, so the port keeps them as
// constants in one place instead of threading a mutable global through it.
#pragma once

#include <cstdint>

namespace spl::format {

struct PrintOptions {
    int precision = 4;        // digits after the point (and of the mantissa in scientific mode)
    int64_t threshold = 1000; // more elements than this: summarize with `...`
    int64_t edgeitems = 3;    // elements kept at each end of a summarized dimension
    int64_t linewidth = 80;   // where 1-d rows and suffixes wrap
    int sci_mode = -1;        // 1: scientific notation, 0: never; -1 (None): decided from the values
};

inline constexpr PrintOptions kPrintOptions{};

} // namespace spl::format
