// Per-call cost of a 1-element add: at::add called directly, the plugin's
// typed C symbol, its boxed thunk and its word adapter (the real Simple
// runtime's convention, spl_w_*), measured side by side in one process.
// Each iteration creates and destroys one result tensor on every path.
#include "plugin_loader.h"

#include <ATen/Parallel.h>
#include <ATen/ops/add.h>
#include <ATen/ops/ones.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>

namespace {

const SplPluginInfo* plugin = nullptr;
// "cpu" by default; SPL_BENCH_DEVICE=cuda:0 measures launches on a GPU.
std::string device = "cpu";

using bench::i64;

int64_t make_one(const SplPluginInfo& info) { return bench::make_one(info, device); }

void BM_direct_at_add(benchmark::State& state) {
    const auto options = at::TensorOptions().device(c10::Device(device));
    const at::Tensor a = at::ones({1}, options), b = at::ones({1}, options);
    for (auto _ : state) {
        at::Tensor c = at::add(a, b);
        benchmark::DoNotOptimize(c.unsafeGetTensorImpl());
    }
}

void BM_typed_symbol(benchmark::State& state) {
    using Add = int64_t (*)(int64_t, int64_t, SplValue);
    using Free = void (*)(int64_t);
    auto add = reinterpret_cast<Add>(bench::function(*plugin, "rt_torch_add_Tensor").typed);
    auto free_handle = reinterpret_cast<Free>(bench::function(*plugin, "rt_torch_release").typed);
    const int64_t a = make_one(*plugin), b = make_one(*plugin);
    const SplValue alpha = i64(1);
    for (auto _ : state) {
        int64_t c = add(a, b, alpha);
        benchmark::DoNotOptimize(c);
        free_handle(c);
    }
    free_handle(a);
    free_handle(b);
}

void BM_boxed_thunk(benchmark::State& state) {
    const SplFunction& add = bench::function(*plugin, "rt_torch_add_Tensor");
    const SplFunction& free_fn = bench::function(*plugin, "rt_torch_release");
    SplValue args[2] = {i64(make_one(*plugin)), i64(make_one(*plugin))};
    SplValue result;
    for (auto _ : state) {
        add.boxed(args, 2, &result);
        free_fn.boxed(&result, 1, &result);
    }
    free_fn.boxed(&args[0], 1, &result);
    free_fn.boxed(&args[1], 1, &result);
}

// The word adapter as the real runtime calls it: 8 words in, a word out, and the
// error state asked after the call (spl_plugin.h: no result can serve as a sentinel).
void BM_word_adapter(benchmark::State& state) {
    const SplWordFn add = bench::function(*plugin, "rt_torch_add_Tensor").word;
    const SplWordFn free_fn = bench::function(*plugin, "rt_torch_release").word;
    const auto pending = reinterpret_cast<int64_t (*)()>(bench::symbol("spl_w_error_pending"));
    const int64_t a = make_one(*plugin), b = make_one(*plugin);
    for (auto _ : state) {
        const int64_t c = add(a, b, SPL_I64, 1, 0, 0, 0, 0);
        if (pending()) state.SkipWithError("the word call failed");
        free_fn(c, 0, 0, 0, 0, 0, 0, 0);
    }
    free_fn(a, 0, 0, 0, 0, 0, 0, 0);
    free_fn(b, 0, 0, 0, 0, 0, 0, 0);
}

BENCHMARK(BM_direct_at_add)->Repetitions(5)->ReportAggregatesOnly(true)->MinTime(0.3);
BENCHMARK(BM_typed_symbol)->Repetitions(5)->ReportAggregatesOnly(true)->MinTime(0.3);
BENCHMARK(BM_boxed_thunk)->Repetitions(5)->ReportAggregatesOnly(true)->MinTime(0.3);
BENCHMARK(BM_word_adapter)->Repetitions(5)->ReportAggregatesOnly(true)->MinTime(0.3);

// Collects the median times so that main can print the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> median_ns;
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const auto& run : runs)
            if (run.aggregate_name == "median") median_ns[run.run_name.function_name] = run.GetAdjustedRealTime();
        ConsoleReporter::ReportRuns(runs);
    }
};

} // namespace

int main(int argc, char** argv) {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    if (!path) {
        std::fprintf(stderr, "set SPL_TORCH_PLUGIN to the path of libspl_torch.so\n");
        return 2;
    }
    plugin = &bench::open_plugin(path);
    if (const char* d = std::getenv("SPL_BENCH_DEVICE")) device = d;
    at::set_num_threads(1); // one-element ops: keep the comparison about call overhead
    benchmark::Initialize(&argc, argv);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const double direct = reporter.median_ns["BM_direct_at_add"];
    std::printf("\nper-call cost of a 1-element add on %s (median of 5, ns): direct %.1f, typed %.1f, boxed %.1f, "
                "word %.1f\n",
                device.c_str(), direct, reporter.median_ns["BM_typed_symbol"], reporter.median_ns["BM_boxed_thunk"],
                reporter.median_ns["BM_word_adapter"]);
    std::printf("ratio to at::add: typed symbol %.3fx, boxed thunk %.3fx (target <= 1.07x), word adapter %.3fx\n",
                reporter.median_ns["BM_typed_symbol"] / direct, reporter.median_ns["BM_boxed_thunk"] / direct,
                reporter.median_ns["BM_word_adapter"] / direct);
    return 0;
}
