// icount_calls MODE N: N one-element adds by one path — `direct` (at::add), `typed` (the
// plugin's C symbol), `boxed` (its thunk) or `word` (its word adapter, with the error check
// the convention asks for) — each result freed as on that path. bench/instructions.py runs
// it under callgrind for two N and takes the difference: the instructions of one call.
#include "../plugin_loader.h"

#include <ATen/ops/add.h>
#include <ATen/ops/ones.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using bench::i64;
using bench::make_one;

int main(int argc, char** argv) {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    if (argc != 3 || !path) {
        std::fprintf(stderr, "usage: SPL_TORCH_PLUGIN=libspl_torch.so icount_calls direct|typed|boxed|word N\n");
        return 2;
    }
    const std::string mode = argv[1];
    const long n = std::atol(argv[2]);
    const SplPluginInfo& info = bench::open_plugin(path);
    const SplFunction& add = bench::function(info, "rt_torch_add_Tensor");
    const SplFunction& release = bench::function(info, "rt_torch_release");
    const int64_t a = make_one(info), b = make_one(info);
    if (mode == "direct") {
        const at::Tensor x = at::ones({1}), y = at::ones({1});
        for (long i = 0; i < n; ++i) at::Tensor c = at::add(x, y);
    } else if (mode == "typed") {
        auto typed_add = reinterpret_cast<int64_t (*)(int64_t, int64_t, SplValue)>(add.typed);
        auto typed_release = reinterpret_cast<void (*)(int64_t)>(release.typed);
        for (long i = 0; i < n; ++i) typed_release(typed_add(a, b, i64(1)));
    } else if (mode == "boxed") {
        const SplValue args[2] = {i64(a), i64(b)};
        SplValue result;
        for (long i = 0; i < n; ++i) {
            add.boxed(args, 2, &result);
            release.boxed(&result, 1, &result);
        }
    } else if (mode == "word") {
        auto pending = reinterpret_cast<int64_t (*)()>(bench::symbol("spl_w_error_pending"));
        for (long i = 0; i < n; ++i) {
            const int64_t c = add.word(a, b, SPL_I64, 1, 0, 0, 0, 0);
            if (pending()) return 1;
            release.word(c, 0, 0, 0, 0, 0, 0, 0);
        }
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    return 0;
}
