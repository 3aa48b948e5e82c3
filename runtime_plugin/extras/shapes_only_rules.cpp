// Shape rules for a shapes-only run (core/shapes_only.h) where LibTorch's C++ has no meta kernel
// and running the CPU kernel on zeros (extras/shapes_only_kernels.cpp) would cost a model's
// whole arithmetic or memory: convolution, batch and layer norm (forward and backward), relu,
// where, index_select (an embedding's lookup) and embedding's backward. Each makes the checks
// its CPU kernel makes, with the same messages, then gives the sizes.
//
// aten::convolution has no C++ meta kernel of its own: on meta tensors its composite kernel picks
// a backend by device and reaches for CUDA. Its checks and its output size are the CPU path's, so
// the forward runs there on an input of batch 0 (no elements, no arithmetic: convolution's empty
// backend) and the weight's zeros, and the result is that size with the batch put back. The
// backward's results are the sizes of the input, the weight and the bias. Batch norm's checks are
// made above native_batch_norm (at::batch_norm's), so its rule is the sizes alone: the output is
// the input's, the saved statistics one per channel (none outside training, as the CPU kernel).
#include <ATen/ATen.h>
#include <ATen/OpMathType.h>
#include <ATen/ExpandUtils.h>
#include <ATen/WrapDimUtils.h>
#include <ATen/native/layer_norm.h>
#include <torch/library.h>

#include <tuple>

#include "core/shapes_only.h"

namespace spl {

namespace {

at::Tensor cpu_zeros(const at::Tensor& t) { return at::zeros(t.sizes(), t.options().device(c10::kCPU)); }

// A bias that may be absent (nullopt, or an undefined tensor inside the optional).
c10::optional<at::Tensor> cpu_zeros(const c10::optional<at::Tensor>& t) {
    return t && t->defined() ? c10::optional<at::Tensor>(cpu_zeros(*t)) : c10::nullopt;
}

at::Tensor convolution_meta(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                            at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                            at::IntArrayRef output_padding, int64_t groups) {
    std::vector<int64_t> empty_batch = input.sizes().vec();
    if (empty_batch.empty()) // no batch to empty: the CPU path states what is wrong
        return at::convolution(cpu_zeros(input), cpu_zeros(weight), cpu_zeros(bias), stride, padding, dilation,
                               transposed, output_padding, groups)
            .to(c10::kMeta);
    empty_batch[0] = 0;
    const at::Tensor shaped =
        at::convolution(at::zeros(empty_batch, input.options().device(c10::kCPU)), cpu_zeros(weight), cpu_zeros(bias),
                        stride, padding, dilation, transposed, output_padding, groups);
    std::vector<int64_t> sizes = shaped.sizes().vec();
    sizes[0] = input.size(0);
    return at::empty(sizes, input.options().device(c10::kMeta));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
convolution_backward_meta(const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight,
                          at::OptionalIntArrayRef bias_sizes, at::IntArrayRef, at::IntArrayRef, at::IntArrayRef, bool,
                          at::IntArrayRef, int64_t, std::array<bool, 3> output_mask) {
    const auto meta = grad_output.options().device(c10::kMeta);
    return {output_mask[0] ? at::empty(input.sizes(), meta) : at::Tensor(),
            output_mask[1] ? at::empty(weight.sizes(), meta) : at::Tensor(),
            output_mask[2] && bias_sizes ? at::empty(*bias_sizes, meta) : at::Tensor()};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
batch_norm_meta(const at::Tensor& input, const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&,
                const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&, bool training, double, double) {
    const auto meta = input.options().device(c10::kMeta);
    const int64_t channels = input.dim() > 1 ? input.size(1) : 1;
    const auto stats = input.options().device(c10::kMeta).dtype(at::toOpMathType(input.scalar_type()));
    return {at::empty(input.sizes(), meta), at::empty({training ? channels : 0}, stats),
            at::empty({training ? channels : 0}, stats)};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
batch_norm_backward_meta(const at::Tensor& grad_out, const at::Tensor& input, const c10::optional<at::Tensor>& weight,
                         const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&,
                         const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&, bool, double,
                         std::array<bool, 3> output_mask) {
    const auto meta = grad_out.options().device(c10::kMeta);
    const int64_t channels = input.dim() > 1 ? input.size(1) : 1;
    const bool affine = weight && weight->defined();
    return {output_mask[0] ? at::empty(input.sizes(), meta) : at::Tensor(),
            output_mask[1] && affine ? at::empty({channels}, meta) : at::Tensor(),
            output_mask[2] && affine ? at::empty({channels}, meta) : at::Tensor()};
}

at::Tensor meta_like(const at::Tensor& t, at::IntArrayRef sizes) {
    return at::empty(sizes, t.options().device(c10::kMeta));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm_meta(const at::Tensor& input,
                                                               at::IntArrayRef normalized_shape,
                                                               const c10::optional<at::Tensor>& weight,
                                                               const c10::optional<at::Tensor>& bias, double) {
    const at::Tensor w = weight ? *weight : at::Tensor(), b = bias ? *bias : at::Tensor();
    at::native::_check_layer_norm_inputs(input, normalized_shape, w, b); // PyTorch's messages
    const int64_t axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
    std::vector<int64_t> stat_sizes(input.sizes().begin(), input.sizes().begin() + axis);
    stat_sizes.resize(static_cast<size_t>(input.dim()), 1);
    const auto stats = input.options().device(c10::kMeta).dtype(at::toOpMathType(input.scalar_type()));
    return {meta_like(input, input.sizes()), at::empty(stat_sizes, stats), at::empty(stat_sizes, stats)};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
layer_norm_backward_meta(const at::Tensor& grad_out, const at::Tensor& input, at::IntArrayRef, const at::Tensor&,
                         const at::Tensor&, const c10::optional<at::Tensor>& weight,
                         const c10::optional<at::Tensor>& bias, std::array<bool, 3> output_mask) {
    const bool w = weight && weight->defined(), b = bias && bias->defined();
    return {output_mask[0] ? meta_like(grad_out, input.sizes()) : at::Tensor(),
            output_mask[1] && w ? meta_like(grad_out, weight->sizes()) : at::Tensor(),
            output_mask[2] && b ? meta_like(grad_out, bias->sizes()) : at::Tensor()};
}

at::Tensor relu_meta(const at::Tensor& self) { return meta_like(self, self.sizes()); }

at::Tensor where_meta(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
    TORCH_CHECK(condition.scalar_type() == at::kBool || condition.scalar_type() == at::kByte,
                "where expected condition to be a boolean tensor, but got a tensor with dtype ",
                condition.scalar_type());
    const std::vector<int64_t> sizes = at::infer_size(at::infer_size(condition.sizes(), self.sizes()), other.sizes());
    return at::empty(sizes, self.options().device(c10::kMeta).dtype(at::result_type(self, other)));
}

at::Tensor index_select_meta(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
    TORCH_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
    TORCH_CHECK_INDEX(index.scalar_type() == at::kLong || index.scalar_type() == at::kInt,
                      "index_select(): Expected dtype int32 or int64 for index");
    if (self.dim() == 0) return meta_like(self, {});
    std::vector<int64_t> sizes = self.sizes().vec();
    sizes[static_cast<size_t>(c10::maybe_wrap_dim(dim, self.dim()))] = index.numel();
    return meta_like(self, sizes);
}

at::Tensor embedding_backward_meta(const at::Tensor& grad_output, const at::Tensor&, int64_t num_weights, int64_t,
                                   bool) {
    return meta_like(grad_output, {num_weights, grad_output.size(-1)});
}

} // namespace

int64_t register_shapes_only_rules(torch::Library& meta) {
    meta.impl("convolution", TORCH_FN(convolution_meta));
    meta.impl("convolution_backward", TORCH_FN(convolution_backward_meta));
    meta.impl("native_batch_norm", TORCH_FN(batch_norm_meta));
    meta.impl("native_batch_norm_backward", TORCH_FN(batch_norm_backward_meta));
    meta.impl("native_layer_norm", TORCH_FN(layer_norm_meta));
    meta.impl("native_layer_norm_backward", TORCH_FN(layer_norm_backward_meta));
    meta.impl("relu", TORCH_FN(relu_meta));
    meta.impl("where.self", TORCH_FN(where_meta));
    meta.impl("index_select", TORCH_FN(index_select_meta));
    meta.impl("embedding_dense_backward", TORCH_FN(embedding_backward_meta));
    return 10;
}

} // namespace spl
