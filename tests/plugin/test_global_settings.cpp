// runtime_plugin/extras/global_settings.cpp and tensor_attributes.cpp against LibTorch called
// directly: the settings the plugin changes are the ones at::globalContext() reads back, and a
// tensor's attributes are ATen's.
#include "test_support.h"

#include <ATen/Context.h>
#include <ATen/MapAllocator.h>
#include <ATen/Parallel.h>
#if __has_include(<ATen/StorageUtils.h>)
#include <ATen/StorageUtils.h> // at::share_memory_ (LibTorch 2.x)
#define HAS_SHARE_MEMORY 1
#else
#define HAS_SHARE_MEMORY 0
#endif
#include <c10/core/DefaultDtype.h>

#include <type_traits>
#include <utility>

using namespace plugin_test;

namespace {

[[maybe_unused]] std::string spl_dtype_name(c10::ScalarType type) {
    return type == c10::kDouble ? "float64" : "float32";
}

// grad_dtype is a recent autograd setting: older LibTorch has none (the plugin refuses there).
template <class T, class = void>
struct HasGradDtype : std::false_type {};
template <class T>
struct HasGradDtype<T, std::void_t<decltype(std::declval<const T&>().grad_dtype())>> : std::true_type {};

template <class T = at::Tensor>
void check_grad_dtype(int64_t leaf) {
    if constexpr (HasGradDtype<T>::value) {
        T direct = at::ones({2}).set_requires_grad(true);
        CHECK(plugin().runtime("rt_torch_grad_dtype", {leaf}).as_text() == spl_dtype_name(*direct.grad_dtype()));
        plugin().runtime("rt_torch_set_grad_dtype", {leaf, "float64"});
        direct.set_grad_dtype(c10::kDouble);
        CHECK(plugin().runtime("rt_torch_grad_dtype", {leaf}).as_text() == spl_dtype_name(*direct.grad_dtype()));
        plugin().runtime("rt_torch_set_grad_dtype", {leaf, ""});
        CHECK(plugin().runtime("rt_torch_grad_dtype", {leaf}).as_text().empty());
    } else {
        expect_error(plugin().try_runtime("rt_torch_grad_dtype", {leaf}),
                     {"x.grad_dtype needs a LibTorch that has it"});
    }
}

} // namespace

TEST_CASE("the process settings are LibTorch's own") {
    plugin().runtime("rt_torch_use_deterministic_algorithms", {true, true});
    CHECK(at::globalContext().deterministicAlgorithms());
    CHECK(at::globalContext().deterministicAlgorithmsWarnOnly());
    CHECK(plugin().runtime("rt_torch_deterministic_algorithms_warn_only").as_bool());
    plugin().runtime("rt_torch_use_deterministic_algorithms", {false, false});
    CHECK_FALSE(at::globalContext().deterministicAlgorithms());
    CHECK_FALSE(plugin().runtime("rt_torch_deterministic_algorithms_enabled").as_bool());

    plugin().runtime("rt_torch_set_float32_matmul_precision", {"medium"});
    CHECK((at::globalContext().float32MatmulPrecision() == at::Float32MatmulPrecision::MEDIUM));
    CHECK(plugin().runtime("rt_torch_float32_matmul_precision").as_text() == std::string("medium"));
    plugin().runtime("rt_torch_set_float32_matmul_precision", {"highest"});
    CHECK((at::globalContext().float32MatmulPrecision() == at::Float32MatmulPrecision::HIGHEST));

    plugin().runtime("rt_torch_set_default_dtype", {"float64"});
    CHECK((c10::get_default_dtype_as_scalartype() == c10::kDouble));
    CHECK(plugin().runtime("rt_torch_get_default_dtype").as_text() == std::string("float64"));
    plugin().runtime("rt_torch_set_default_dtype", {"float32"});
    CHECK((c10::get_default_dtype_as_scalartype() == c10::kFloat));
    expect_error(plugin().try_runtime("rt_torch_set_default_dtype", {"int32"}),
                 {"only floating-point types are supported as the default type"});

    CHECK(plugin().runtime("rt_torch_built_with", {"lapack"}).as_bool() == at::hasLAPACK());
    CHECK(plugin().runtime("rt_torch_built_with", {"openmp"}).as_bool() == at::hasOpenMP());
    CHECK(plugin().runtime("rt_torch_get_num_interop_threads").as_i64() ==
          static_cast<int64_t>(at::get_num_interop_threads()));
    expect_error(plugin().try_runtime("rt_torch_set_num_interop_threads", {0}), {"expects a positive integer"});
}

TEST_CASE("a tensor's layout, kind, strides and data pointer are ATen's") {
    const Input base = upload(at::arange(6, at::kFloat).reshape({2, 3}));
    const int64_t xh = op_handle("rt_torch_transpose_int", {base.h, 0, 1});
    const at::Tensor ref = at::arange(6, at::kFloat).reshape({2, 3}).t();
    struct {
        int64_t h;
    } x{xh};
    CHECK(plugin().runtime("rt_torch_layout", {x.h}).as_text() == std::string("strided"));
    CHECK(plugin().runtime("rt_torch_tensor_is", {x.h, "cpu"}).as_bool());
    CHECK_FALSE(plugin().runtime("rt_torch_tensor_is", {x.h, "sparse"}).as_bool());
    CHECK(plugin().runtime("rt_torch_strides", {x.h}).as_i64_list() == ref.strides().vec());
    struct {
        int64_t h;
    } s{op_handle("rt_torch_to_sparse_sparse_dim", {x.h, 2})};
    CHECK(plugin().runtime("rt_torch_layout", {s.h}).as_text() == std::string("sparse_coo"));
    CHECK(plugin().runtime("rt_torch_tensor_is", {s.h, "sparse"}).as_bool());
    CHECK(plugin().runtime("rt_torch_strides", {s.h}).as_i64_list() == ref.to_sparse(2).strides().vec());
    expect_error(plugin().try_runtime("rt_torch_data_ptr", {s.h, false}), {"doesn't have storage"});
    const int64_t ptr = plugin().runtime("rt_torch_data_ptr", {x.h, false}).as_i64();
    CHECK(ptr == plugin().runtime("rt_torch_data_ptr", {x.h, true}).as_i64());
    // a view that starts after its storage's first element: its own first element's address,
    // ATen's offset (stride 0 of x, in floats) past x's
    const int64_t row = op_handle("rt_torch_select_int", {x.h, 0, 1});
    CHECK(plugin().runtime("rt_torch_data_ptr", {row, false}).as_i64() ==
          ptr + ref.stride(0) * static_cast<int64_t>(sizeof(float)));
    plugin().free(row);
    CHECK(plugin().runtime("rt_torch_tensor_name", {x.h}).as_text() == ref.name());
    const Input leaf = upload(at::ones({2}), /*requires_grad=*/true);
    check_grad_dtype(leaf.h);
    plugin().free(leaf.h);
    plugin().free(s.h);
    plugin().free(x.h);
    plugin().free(base.h);
}

TEST_CASE("share_memory_ moves a tensor into shared memory, as at::share_memory_") {
    const Input x = upload(at::arange(4, at::kFloat));
#if !HAS_SHARE_MEMORY
    expect_error(plugin().try_runtime("rt_torch_share_memory_", {x.h}), {"x.share_memory_() needs a LibTorch"});
    plugin().free(x.h);
    return;
#endif
    CHECK_FALSE(plugin().runtime("rt_torch_is_shared", {x.h}).as_bool());
    plugin().runtime("rt_torch_share_memory_", {x.h});
    CHECK(plugin().runtime("rt_torch_is_shared", {x.h}).as_bool());
    CHECK(to_aten(x.h).equal(at::arange(4, at::kFloat)));
#if HAS_SHARE_MEMORY
    at::Tensor direct = at::arange(4, at::kFloat);
    at::share_memory_(direct);
    CHECK(at::MapAllocator::fromDataPtr(direct.storage().data_ptr()) != nullptr);
    plugin().free(x.h);
#endif
}
