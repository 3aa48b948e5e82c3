// Meta kernels for a shapes-only run (core/shapes_only.h), where LibTorch has none in C++.
//
// Most operators have a C++ meta kernel (their shape rule, with the CPU kernel's checks and
// messages). The rest (index_select, embedding's backward, batch and layer norm, relu; and
// convolution, whose C++ path on meta tensors reaches for CUDA) have theirs only in Python
// (torch/_meta_registrations.py), which a Simple program does not load. The commonest of them
// have shape rules (extras/shapes_only_rules.cpp); each of the others gets, in a shapes-only run
// only, one fallback on the Meta key: the operator runs on CPU tensors of zeros of its
// arguments' sizes and dtypes (a CPU kernel's checks and output sizes are its meta kernel's) and
// its results are moved back to meta. Zeros are valid indices and divisors of nothing, so an
// operator whose result's *shape* or value is the data's (nonzero, unique, masked_select,
// item()'s _local_scalar_dense, ...) is not run: that is data the check cannot know, and the run
// stops there. A call whose arguments would take more than kMaxElements zeros also stops the run
// instead of allocating them.
#include "extras/extra_function.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <array>
#include <string_view>

#include "core/shapes_only.h"

namespace spl {

namespace {

constexpr int64_t kMaxElements = int64_t(1) << 27;

// Operators whose results' sizes (or values returned as numbers) are the data's.
constexpr std::array<std::string_view, 16> kDataDependent = {
    "aten::nonzero",
    "aten::nonzero_static",
    "aten::argwhere",
    "aten::masked_select",
    "aten::unique",
    "aten::_unique",
    "aten::_unique2",
    "aten::unique_consecutive",
    "aten::unique_dim",
    "aten::bincount",
    "aten::_local_scalar_dense",
    "aten::repeat_interleave",
    "aten::equal",
    "aten::is_nonzero",
    "aten::allclose",
    "aten::histc",
};

// The operators extras/shapes_only_rules.cpp gives a rule of their own (by name, every overload
// named there: `where.self` only).
bool has_shape_rule(const c10::OperatorName& name) {
    for (std::string_view n :
         {"aten::convolution", "aten::convolution_backward", "aten::native_batch_norm",
          "aten::native_batch_norm_backward", "aten::native_layer_norm", "aten::native_layer_norm_backward",
          "aten::relu", "aten::index_select", "aten::embedding_dense_backward"})
        if (name.name == n && name.overload_name.empty()) return true;
    return name.name == "aten::where" && name.overload_name == "self";
}

bool data_dependent(const c10::OperatorName& name) {
    for (std::string_view n : kDataDependent)
        if (name.name == n) return true;
    return false;
}

at::Tensor zeros_for(const at::Tensor& t, int64_t& elements) {
    if (!t.defined() || !t.is_meta()) return t;
    elements += t.numel();
    if (elements > kMaxElements)
        throw SplError("a shapes-only run (splrun check) does not run this operator on zeros of " +
                       std::to_string(elements) + " elements (what follows needs its data)");
    return at::zeros(t.sizes(), t.options().device(c10::kCPU));
}

c10::IValue to_meta(const c10::IValue& v) {
    if (v.isTensor()) {
        const at::Tensor& t = v.toTensor();
        return t.defined() ? c10::IValue(t.to(c10::kMeta)) : v;
    }
    if (v.isTensorList()) {
        std::vector<at::Tensor> out;
        for (const at::Tensor& t : v.toTensorVector()) out.push_back(t.defined() ? t.to(c10::kMeta) : t);
        return c10::IValue(out);
    }
    return v;
}

void run_on_cpu_zeros(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    const c10::FunctionSchema& schema = op.schema();
    if (data_dependent(schema.operator_name()))
        throw SplError(schema.name() + "'s result depends on the data: a shapes-only run (splrun check) stops here");
    const size_t n = schema.arguments().size();
    const size_t first = stack->size() - n;
    std::vector<c10::IValue> originals(stack->begin() + static_cast<std::ptrdiff_t>(first), stack->end());
    int64_t elements = 0;
    for (size_t i = first; i < stack->size(); ++i) {
        c10::IValue& v = (*stack)[i];
        if (v.isTensor()) {
            v = zeros_for(v.toTensor(), elements);
        } else if (v.isTensorList()) {
            std::vector<at::Tensor> list;
            for (const at::Tensor& t : v.toTensorVector()) list.push_back(zeros_for(t, elements));
            v = c10::IValue(list);
        } else if (v.isOptionalTensorList()) {
            c10::List<c10::optional<at::Tensor>> list;
            for (const c10::optional<at::Tensor>& t : v.toOptionalTensorList())
                list.push_back(t ? c10::optional<at::Tensor>(zeros_for(*t, elements)) : t);
            v = c10::IValue(list);
        }
    }
    op.callBoxed(stack); // the arguments are CPU tensors now: the CPU kernel runs
    const auto& returns = schema.returns();
    const size_t r0 = stack->size() - returns.size();
    for (size_t i = 0; i < returns.size(); ++i) {
        c10::IValue& v = (*stack)[r0 + i];
        // A result that is an argument (in-place and out= operators) is that meta argument,
        // resized as the CPU kernel resized its copy (an out= tensor starts empty).
        const c10::AliasInfo* alias = returns[i].alias_info();
        bool replaced = false;
        if (alias && alias->isWrite())
            for (size_t a = 0; a < n && !replaced; ++a)
                if (const c10::AliasInfo* arg = schema.arguments()[a].alias_info(); arg && *arg == *alias) {
                    if (v.isTensor() && originals[a].isTensor() && originals[a].toTensor().is_meta() &&
                        originals[a].toTensor().sizes() != v.toTensor().sizes())
                        originals[a].toTensor().resize_(v.toTensor().sizes());
                    v = originals[a];
                    replaced = true;
                }
        if (!replaced) v = to_meta(v);
    }
}

} // namespace

// extras/shapes_only_rules.cpp: convolution's and batch norm's shape rules on the Meta key; how many.
int64_t register_shapes_only_rules(torch::Library& meta);

int64_t register_shapes_only_kernels() {
    // Never destroyed: the registrations last as long as the process (a Library's destructor
    // would deregister them while LibTorch is tearing down). Held here, so not a leak.
    static torch::Library* lib = nullptr;
    static int64_t registered = [] {
        lib = new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::Meta, __FILE__, __LINE__);
        int64_t count = 0;
        for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
            if (name.name.rfind("aten::", 0) != 0) continue;
            const auto op = c10::Dispatcher::singleton().findOp(name);
            if (!op) continue;
            if (has_shape_rule(name) || op->hasKernelForDispatchKey(c10::DispatchKey::Meta) ||
                op->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd) ||
                !op->hasKernelForDispatchKey(c10::DispatchKey::CPU))
                continue;
            std::string full = name.name.substr(6);
            if (!name.overload_name.empty()) full += "." + name.overload_name;
            lib->impl(full.c_str(), torch::CppFunction::makeFromBoxedFunction<&run_on_cpu_zeros>());
            ++count;
        }
        return count + register_shapes_only_rules(*lib);
    }();
    return registered;
}

} // namespace spl

extern "C" {

// How many operators a shapes-only run gives the zeros fallback above (0 in a normal run, which
// registers nothing): the count `splrun check`'s documentation reports.
SPL_TORCH_EXPORT int64_t rt_torch_shapes_only_fallbacks(void) {
    return spl::guarded<int64_t>(__func__,
                                 [&] { return spl::shapes_only() ? spl::register_shapes_only_kernels() : 0; });
}

} // extern "C"

SPL_EXTRA(rt_torch_shapes_only_fallbacks)
