// Process groups: a Gloo backend over a store (what torch.distributed's init_process_group and
// new_group build for backend "gloo"), or an NCCL backend made by the CUDA companion (the plugin
// does not link LibTorch's CUDA part, where ProcessGroupNCCL lives); its rank and size.
#include "extras/distributed/dist_support.h"

#include "core/cuda_companion.h"
#include "core/cuda_libraries.h"

#if __has_include(<gloo/config.h>) && defined(USE_C10D_GLOO)
#define SPL_TORCH_HAS_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#else
#define SPL_TORCH_HAS_GLOO 0
#endif

#include <cstdlib>
#include <sstream>
#include <type_traits>
#include <utility>

namespace spl::dist {

c10d::ReduceOp reduce_op(const char* name) {
    const std::string n(name);
    if (n == "SUM") return c10d::ReduceOp::SUM;
    if (n == "PRODUCT") return c10d::ReduceOp::PRODUCT;
    if (n == "MIN") return c10d::ReduceOp::MIN;
    if (n == "MAX") return c10d::ReduceOp::MAX;
    if (n == "BAND") return c10d::ReduceOp::BAND;
    if (n == "BOR") return c10d::ReduceOp::BOR;
    if (n == "BXOR") return c10d::ReduceOp::BXOR;
    if (n == "AVG") return c10d::ReduceOp::AVG;
    throw SplError(std::string("unknown ReduceOp ") + name);
}

} // namespace spl::dist

namespace {

// A backend's setTimeout, which LibTorch's backends have had since 2.x (1.13's lack it).
template <class B, class = void>
struct HasSetTimeout : std::false_type {};
template <class B>
struct HasSetTimeout<B, std::void_t<decltype(std::declval<B&>().setTimeout(std::chrono::milliseconds()))>>
    : std::true_type {};

template <class Backend>
void set_backend_timeout(Backend& backend, std::chrono::milliseconds timeout) {
    if constexpr (HasSetTimeout<Backend>::value)
        backend.setTimeout(timeout);
    else
        TORCH_CHECK(false, "set_timeout needs a process group backend with setTimeout, which this LibTorch (",
                    SPL_TORCH_LIBTORCH_VERSION, ") lacks");
}

} // namespace

extern "C" {

// ProcessGroupGloo(store, rank, size, timeout) on the device torch.distributed picks: the
// interface GLOO_SOCKET_IFNAME names, else the host's default device.
SPL_TORCH_EXPORT int64_t rt_torch_dist_gloo_group(int64_t store, int64_t rank, int64_t size, int64_t timeout_ms) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
#if SPL_TORCH_HAS_GLOO
        auto s = spl::dist::store(store, "store");
        auto opts = c10d::ProcessGroupGloo::Options::create(spl::dist::millis(timeout_ms));
        const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
        if (ifname != nullptr && *ifname != '\0') {
            std::stringstream names(ifname); // several interfaces, comma-separated, as torch's
            for (std::string name; std::getline(names, name, ',');)
                if (!name.empty()) opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(name));
        } else {
            opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        }
        auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(s, static_cast<int>(rank), static_cast<int>(size), opts);
        return spl::HandleTable::instance().insert_object(std::make_shared<spl::dist::GroupObject>(pg));
#else
        TORCH_CHECK(false, "Gloo backend is not available: the plugin was built without gloo's headers "
                           "(install libgloo-dev and rebuild)");
#endif
    });
}

SPL_TORCH_EXPORT bool rt_torch_dist_gloo_available(void) {
    return spl::guarded<bool>(__func__, [&] { return SPL_TORCH_HAS_GLOO != 0; });
}

// ProcessGroupNCCL(store, rank, size) with its timeout: one GPU per rank, CUDA tensors only.
SPL_TORCH_EXPORT int64_t rt_torch_dist_nccl_group(int64_t store, int64_t rank, int64_t size, int64_t timeout_ms) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
#if SPL_TORCH_AT_LEAST(2, 0)
        const auto s = spl::dist::store(store, "store");
        void* made = nullptr;
        spl::check_companion(spl::cuda_companion().nccl_backend(s.get(), rank, size, timeout_ms, &made));
        auto backend = c10::intrusive_ptr<c10d::Backend>::reclaim(static_cast<c10d::Backend*>(made));
        return spl::HandleTable::instance().insert_object(std::make_shared<spl::dist::GroupObject>(std::move(backend)));
#else
        TORCH_CHECK(false, "the NCCL backend needs LibTorch 2.0 or later");
#endif
    });
}

// torch.distributed.is_nccl_available(): the companion has NCCL and CUDA can run here.
SPL_TORCH_EXPORT bool rt_torch_dist_nccl_available(void) {
    return spl::guarded<bool>(__func__, [&] {
        try {
            return spl::cuda_companion().nccl_available != 0;
        } catch (const std::exception&) {
            return false; // no CUDA here, or no companion: NCCL cannot run
        }
    });
}

// torch.distributed.set_timeout: the group's timeout for the operations started after it.
SPL_TORCH_EXPORT void rt_torch_dist_group_set_timeout(int64_t group, int64_t timeout_ms) {
    spl::guarded<void>(__func__, [&] { set_backend_timeout(*spl::dist::group(group), spl::dist::millis(timeout_ms)); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_group_rank(int64_t group) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(spl::dist::group(group)->getRank()); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_group_size(int64_t group) {
    return spl::guarded<int64_t>(__func__, [&] { return static_cast<int64_t>(spl::dist::group(group)->getSize()); });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_gloo_group, "store", "rank", "size", "timeout_ms")
SPL_EXTRA(rt_torch_dist_gloo_available)
SPL_EXTRA(rt_torch_dist_nccl_group, "store", "rank", "size", "timeout_ms")
SPL_EXTRA(rt_torch_dist_nccl_available)
SPL_EXTRA(rt_torch_dist_group_set_timeout, "group", "timeout_ms")
SPL_EXTRA(rt_torch_dist_group_rank, "group")
SPL_EXTRA(rt_torch_dist_group_size, "group")
