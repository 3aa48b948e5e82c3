// The few pieces of Python's text formatting the tensor printer relies on,
// reproduced so the port gives Python's characters exactly.
#pragma once

#include <c10/util/ArrayRef.h>

#include <string>

namespace spl::format {

// f"{value:.{precision}f}": nan and infinities as Python writes them ("nan",
// "inf", "-inf"; C's printf would write "-nan" for a negative NaN).
std::string python_fixed(double value, int precision);
// f"{value:.{precision}e}" ("1.0000e+08"), with the same non-finite rule.
std::string python_scientific(double value, int precision);
// str(tuple(shape)): "(0, 3)", "(5,)", "()".
std::string python_tuple(c10::IntArrayRef values);
// str.lstrip(): leading whitespace removed.
std::string lstrip(const std::string& text);

} // namespace spl::format

namespace spl::format {

// repr(value) of a Python float: the shortest text that reads back as the
// same double, in fixed notation for exponents -4..15 ("0.1", "100.0"),
// scientific outside ("1e-05", "1.5e+16").
std::string python_float_repr(double value);

} // namespace spl::format
