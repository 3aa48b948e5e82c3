// The names Simple programs write for dtypes, devices, layouts and memory
// formats: the ones PyTorch users write ("float32", "cuda:0", "channels_last").
#pragma once

#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/QScheme.h>
#include <c10/core/ScalarType.h>

#include <string>
#include <string_view>

namespace spl {

// Each parse_* throws SplError naming the bad value and listing valid names.
c10::ScalarType parse_dtype(std::string_view name);
c10::Layout parse_layout(std::string_view name);
c10::MemoryFormat parse_memory_format(std::string_view name);
c10::Device parse_device(std::string_view name);

// Canonical names, as parse_* accepts them.
const char* dtype_name(c10::ScalarType type);
const char* layout_name(c10::Layout layout);
const char* memory_format_name(c10::MemoryFormat format);
const char* qscheme_name(c10::QScheme scheme);
std::string device_name(const c10::Device& device);

} // namespace spl
