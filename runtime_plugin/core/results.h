// ATen results -> typed-ABI results; the boxed values themselves, their arena and the typed
// ABI -> boxed conversions are ATen-free, in abi/boxed_values.h.
#pragma once

#include "spl_plugin.h"
#include "abi/boxed_values.h"
#include "core/enum_names.h"
#include "core/handle_table.h"
#include "core/libtorch_compat.h"

#if SPL_TORCH_HAS_SYMBOOL
#include <c10/core/SymBool.h>
#endif

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/SymInt.h>

#include <string>
#include <tuple>
#include <vector>

namespace spl {

// --- ATen -> typed ABI -----------------------------------------------------------
inline int64_t new_handle(at::Tensor t) { return HandleTable::instance().insert(std::move(t)); }
inline int64_t sym_int_value(const c10::SymInt& s) { return s.expect_int(); }
#if SPL_TORCH_HAS_SYMBOOL
inline bool sym_bool_value(const c10::SymBool& b) { return b.guard_bool(__FILE__, __LINE__); }
#endif
SplValue scalar_value(const at::Scalar& s);
inline const char* dtype_value(c10::ScalarType t) { return dtype_name(t); }
inline const char* qscheme_value(c10::QScheme q) { return qscheme_name(q); }
SplValue tensor_list_value(const std::vector<at::Tensor>& tensors); // new handles
SplValue handle_list_value(SplI64Array handles);                    // returns inputs as-is
SplValue int_list_value(c10::IntArrayRef values);

} // namespace spl
