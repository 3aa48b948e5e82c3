// Port of _tensor_str.py's get_summarized_data: the edge items a summarized print shows.
#include "extras/format/summarize.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/stack.h>

#include <vector>

namespace spl::format {

at::Tensor summarized_data(const at::Tensor& self, const PrintOptions& options) {
    const int64_t edge = options.edgeitems;
    if (self.dim() == 0) return self;
    const int64_t n = self.size(0);
    if (self.dim() == 1) {
        if (n > 2 * edge) return at::cat({self.slice(0, 0, edge), self.slice(0, n - edge, n)});
        return self;
    }
    if (edge == 0) return at::empty(std::vector<int64_t>(self.dim(), 0), self.options());
    std::vector<at::Tensor> rows;
    if (n > 2 * edge) {
        for (int64_t i = 0; i < edge; ++i) rows.push_back(summarized_data(self[i], options));
        for (int64_t i = n - edge; i < n; ++i) rows.push_back(summarized_data(self[i], options));
    } else {
        for (int64_t i = 0; i < n; ++i) rows.push_back(summarized_data(self[i], options));
    }
    return at::stack(rows);
}

} // namespace spl::format
