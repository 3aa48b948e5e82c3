// The boxed and word targets' shared table and value pools (fuzz_table.h).
#include "fuzz_table.h"

#include "core/results.h"
#include "fuzz_support.h"

#include <ATen/ops/arange.h>
#include <ATen/ops/ones.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

extern "C" const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error);

namespace fuzz {

const SplPluginInfo& plugin() {
    static const SplPluginInfo* info = [] {
        init();
        const SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, nullptr}; // no host callbacks
        const char* error = nullptr;
        const SplPluginInfo* opened = spl_plugin_open(&request, &error);
        if (!opened) broken("spl_plugin_open", error);
        return opened;
    }();
    return *info;
}

const std::vector<const SplFunction*>& fuzzed_functions() {
    static const std::vector<const SplFunction*> functions = [] {
        static const char* const names[] = {"rt_torch_add_Tensor",
                                            "rt_torch__foreach_add_ScalarList",
                                            "rt_torch_cat",
                                            "rt_torch_stack",
                                            "rt_torch_clamp",
                                            "rt_torch_einsum",
                                            "rt_torch_flip",
                                            "rt_torch_permute",
                                            "rt_torch_reshape",
                                            "rt_torch_view",
                                            "rt_torch_roll",
                                            "rt_torch_squeeze_dims",
                                            "rt_torch_sum_dim_IntList",
                                            "rt_torch_std_correction",
                                            "rt_torch_to_dtype",
                                            "rt_torch_nan_to_num",
                                            "rt_torch_max_pool2d",
                                            "rt_torch_conv2d",
                                            "rt_torch__histogramdd_bin_edges",
                                            "rt_torch_softmax_int",
                                            "rt_torch_topk",
                                            "rt_torch_sort",
                                            "rt_torch_unbind_int",
                                            "rt_torch_chunk",
                                            "rt_torch_masked_fill_Scalar",
                                            "rt_torch_transpose_int",
                                            "rt_torch_narrow",
                                            "rt_torch_index_select",
                                            "rt_torch_gather",
                                            "rt_torch_where_self",
                                            "rt_torch_meshgrid",
                                            "rt_torch_layer_norm",
                                            "rt_torch_dropout"};
        std::vector<const SplFunction*> found;
        for (const char* name : names) {
            const SplFunction* fn = plugin().find(name);
            if (!fn) broken("the plugin's table has no", name);
            found.push_back(fn);
        }
        return found;
    }();
    return functions;
}

const std::vector<int64_t>& tensors() {
    static const std::vector<int64_t> handles = [] {
        plugin();
        return std::vector<int64_t>{
            spl::new_handle(at::arange(6, at::kFloat).reshape({2, 3})),
            spl::new_handle(at::arange(2, at::kLong)),
            spl::new_handle(at::arange(6, at::kLong).reshape({2, 3}).remainder(2).to(at::kBool)),
            spl::new_handle(at::arange(16, at::kFloat).reshape({1, 1, 4, 4})),
            spl::new_handle(at::ones({1, 1, 2, 2}, at::kFloat)),
            spl::new_handle(at::ones({}, at::kFloat)),
        };
    }();
    return handles;
}

int64_t pick_i64(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
    case 1: return in.ConsumeIntegralInRange<int64_t>(-3, 8);
    case 2: {
        static const int64_t extremes[] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), -1,
                                           int64_t{1} << 32, -(int64_t{1} << 31)};
        return in.PickValueInArray(extremes);
    }
    case 3: return in.ConsumeIntegral<int64_t>(); // a forged handle, mostly
    default: return tensors()[in.ConsumeIntegralInRange<size_t>(0, tensors().size() - 1)];
    }
}

double pick_f64(FuzzedDataProvider& in) {
    static const double values[] = {0.0,
                                    1.5,
                                    -1.0,
                                    std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::max(),
                                    std::numeric_limits<double>::denorm_min(),
                                    1e20};
    if (in.ConsumeBool()) return in.PickValueInArray(values);
    const uint64_t bits = in.ConsumeIntegral<uint64_t>();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

const std::string& pick_text(FuzzedDataProvider& in, std::deque<std::string>& store) {
    static const char* const texts[] = {"",           "float32",       "float64",
                                        "int64",      "bool",          "uint8",
                                        "complex64",  "float8_e4m3fn", "cpu",
                                        "cuda:0",     "meta",          "strided",
                                        "sparse_coo", "ij,jk->ik",     "ii->i",
                                        "...i->...",  "i,i",           "constant",
                                        "reflect",    "channels_last", "contiguous_format",
                                        "nonsense"};
    if (in.ConsumeBool())
        store.emplace_back(in.PickValueInArray(texts));
    else
        store.push_back(in.ConsumeRandomLengthString(32));
    return store.back();
}

namespace {

void collect(const SplValue& v, std::vector<int64_t>& out, int depth) {
    if (v.tag == SPL_I64) out.push_back(v.as.i);
    if (v.tag == SPL_ARRAY && depth < 8)
        for (int64_t i = 0; i < v.as.array.len; ++i) collect(v.as.array.items[i], out, depth + 1);
}

} // namespace

int release_new_handles(const SplValue& result) {
    std::vector<int64_t> found;
    collect(result, found, 0);
    int released = 0;
    for (int64_t h : found) {
        if (std::find(tensors().begin(), tensors().end(), h) != tensors().end()) continue;
        if (!spl::HandleTable::instance().is_live(h)) continue;
        rt_torch_release(h);
        if (call_failed("rt_torch_release")) broken("rt_torch_release of a result", rt_torch_last_error());
        ++released;
    }
    return released;
}

} // namespace fuzz
