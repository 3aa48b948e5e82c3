// Random generators as values: lib.torch's Generator objects (torch.Generator), the
// default generator's state (get_rng_state / set_rng_state) and the intra-op thread count.
// A generator's handle lives in the handle table beside tensors; generated operators take
// it wherever ATen takes a `Generator?` (core/abi_args.cpp, opt_generator).
#include "extras/extra_function.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <mutex>

namespace {

at::Generator& generator_arg(int64_t g) { return spl::HandleTable::instance().generator(g, "generator"); }

} // namespace

extern "C" {

// A new CPU generator with PyTorch's default seed (67280421310721), as torch.Generator().
SPL_TORCH_EXPORT int64_t rt_torch_generator_new(void) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::HandleTable::instance().insert_generator(at::make_generator<at::CPUGeneratorImpl>());
    });
}

// A handle to the default CPU generator itself (what manual_seed seeds; ops without a
// generator draw from it).
SPL_TORCH_EXPORT int64_t rt_torch_default_generator(void) {
    return spl::guarded<int64_t>(
        __func__, [&] { return spl::HandleTable::instance().insert_generator(at::detail::getDefaultCPUGenerator()); });
}

// Generator.manual_seed: a negative seed is taken modulo 2^64, as PyTorch does.
SPL_TORCH_EXPORT void rt_torch_generator_manual_seed(int64_t g, int64_t seed) {
    spl::guarded<void>(__func__, [&] {
        at::Generator& gen = generator_arg(g);
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_current_seed(static_cast<uint64_t>(seed));
    });
}

// Generator.initial_seed (the last seed set), as an i64 (bits of the uint64).
SPL_TORCH_EXPORT int64_t rt_torch_generator_initial_seed(int64_t g) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(generator_arg(g).current_seed()); });
}

// Generator.seed: seeds from a non-deterministic source and returns the seed.
SPL_TORCH_EXPORT int64_t rt_torch_generator_seed(int64_t g) {
    return spl::guarded<int64_t>(__func__, [&] {
        at::Generator& gen = generator_arg(g);
        std::lock_guard<std::mutex> lock(gen.mutex());
        return static_cast<int64_t>(gen.seed());
    });
}

// Generator.get_state: a uint8 tensor holding the whole state (a copy).
SPL_TORCH_EXPORT int64_t rt_torch_generator_get_state(int64_t g) {
    return spl::guarded<int64_t>(__func__, [&] {
        at::Generator& gen = generator_arg(g);
        std::lock_guard<std::mutex> lock(gen.mutex());
        return spl::new_handle(gen.get_state());
    });
}

// Generator.set_state: LibTorch checks the state's size and dtype and says what is wrong.
SPL_TORCH_EXPORT void rt_torch_generator_set_state(int64_t g, int64_t state) {
    spl::guarded<void>(__func__, [&] {
        at::Generator& gen = generator_arg(g);
        const at::Tensor& s = spl::tensor(state, "new_state");
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_state(s);
    });
}

SPL_TORCH_EXPORT void rt_torch_set_num_threads(int64_t n) {
    spl::guarded<void>(__func__, [&] {
        if (n <= 0)
            throw spl::SplError("set_num_threads: expected a positive number of threads, got " + std::to_string(n));
        at::set_num_threads(static_cast<int>(n));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_get_num_threads(void) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(at::get_num_threads()); });
}

} // extern "C"

SPL_EXTRA(rt_torch_generator_new)
SPL_EXTRA(rt_torch_default_generator)
SPL_EXTRA(rt_torch_generator_manual_seed, "g", "seed")
SPL_EXTRA(rt_torch_generator_initial_seed, "g")
SPL_EXTRA(rt_torch_generator_seed, "g")
SPL_EXTRA(rt_torch_generator_get_state, "g")
SPL_EXTRA(rt_torch_generator_set_state, "g", "state")
SPL_EXTRA(rt_torch_set_num_threads, "n")
SPL_EXTRA(rt_torch_get_num_threads)
