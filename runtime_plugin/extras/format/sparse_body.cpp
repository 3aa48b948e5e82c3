// Port of _tensor_str.py's sparse branches: indices and values, not dense values.
#include "extras/format/sparse_body.h"

#include "core/enum_names.h"
#include "extras/format/python_text.h"
#include "extras/format/tensor_body.h"

#include <ATen/core/Tensor.h>

namespace spl::format {

namespace {

// One "name=tensor(...)" part: the values of a component tensor (its size
// added when it is empty), or "..." for a meta tensor.
std::string component(const std::string& prefix, const at::Tensor& part, bool is_meta, int64_t indent,
                      const PrintOptions& options) {
    std::string text =
        is_meta ? "..." : tensor_body(part.detach(), indent + static_cast<int64_t>(prefix.size()), options);
    if (is_meta || part.numel() == 0) text += ", size=" + python_tuple(part.sizes());
    return prefix + text + ")";
}

} // namespace

bool is_sparse_layout(const at::Tensor& self) {
    const c10::Layout layout = self.layout();
    return layout == c10::kSparse || layout == c10::kSparseCsr || layout == c10::kSparseCsc ||
           layout == c10::kSparseBsr || layout == c10::kSparseBsc;
}

std::string sparse_body(const at::Tensor& self, int64_t indent, bool has_default_dtype,
                        std::vector<std::string>& suffixes, const PrintOptions& options) {
    const bool is_meta = self.is_meta();
    suffixes.push_back("size=" + python_tuple(self.sizes()));
    if (!is_meta) suffixes.push_back("nnz=" + std::to_string(self._nnz()));
    if (!has_default_dtype) suffixes.push_back(std::string("dtype=torch.") + spl::dtype_name(self.scalar_type()));
    const std::string newline = ",\n" + std::string(static_cast<size_t>(indent), ' ');

    const c10::Layout layout = self.layout();
    if (layout == c10::kSparse)
        return component("indices=tensor(", self._indices(), is_meta, indent, options) + newline +
               component("values=tensor(", self._values(), is_meta, indent, options);

    // CSR and BSR compress rows (crow_indices, col_indices); CSC and BSC columns.
    const bool rows = layout == c10::kSparseCsr || layout == c10::kSparseBsr;
    const at::Tensor compressed = rows ? self.crow_indices() : self.ccol_indices();
    const at::Tensor plain = rows ? self.col_indices() : self.row_indices();
    return component(rows ? "crow_indices=tensor(" : "ccol_indices=tensor(", compressed, is_meta, indent, options) +
           newline + component(rows ? "col_indices=tensor(" : "row_indices=tensor(", plain, is_meta, indent, options) +
           newline + component("values=tensor(", self.values(), is_meta, indent, options);
}

} // namespace spl::format
