// torch.jit.freeze and torch.jit.optimize_for_inference for lib.torch.jit
// (spl_stubs/lib/torch/jit/_freeze.spl): LibTorch's torch::jit::freeze and
// torch::jit::optimize_for_inference (torch/csrc/jit/api/module.h) on a module handle, giving a
// new module handle. The eval-mode and ScriptModule checks, with PyTorch's texts, are on the
// Simple side, as they are in torch/jit/_freeze.py.
#include "extras/extra_function.h"
#include "extras/io/io_support.h"
#include "extras/jit/script_module.h"

#include <torch/csrc/jit/api/module.h>

#include <string>
#include <vector>

extern "C" {

// torch.jit.freeze(module, preserved_attrs, optimize_numerics): _freeze_module, then
// run_frozen_optimizations on forward and the preserved methods.
SPL_TORCH_EXPORT int64_t rt_torch_jit_freeze(int64_t module, SplTextArray preserved_attrs, bool optimize_numerics) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::vector<std::string> preserved = spl::io::text_list(preserved_attrs, "preserved_attrs");
        return spl::jit::new_module(torch::jit::freeze(spl::jit::module_of(module), preserved, optimize_numerics));
    });
}

// torch._C._jit_pass_optimize_for_inference(module, other_methods) on a frozen module: the
// inference passes (conv-bn/add/mul folding, MKLDNN conversion where built) on forward and
// `other_methods`.
SPL_TORCH_EXPORT int64_t rt_torch_jit_optimize_for_inference(int64_t module, SplTextArray other_methods) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::vector<std::string> methods = spl::io::text_list(other_methods, "other_methods");
        return spl::jit::new_module(torch::jit::optimize_for_inference(spl::jit::module_of(module), methods));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_jit_freeze, "module", "preserved_attrs", "optimize_numerics")
SPL_EXTRA(rt_torch_jit_optimize_for_inference, "module", "other_methods")
