// The value of a C/C++ string literal token as the compiler reads it, for the
// `schema_str` members of at::_ops, which libclang hands over only as source
// text (`"add(Tensor self, str mode=\"x\") -> Tensor"`).
#pragma once

#include <string>
#include <string_view>

namespace codegen {

// `token` is one ordinary narrow literal, quotes included. Throws
// std::invalid_argument for a prefixed, raw or malformed literal rather than
// returning a wrong schema.
std::string c_string_literal_value(std::string_view token);

} // namespace codegen
