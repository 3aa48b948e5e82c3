// The C ABI itself: opening with versions, the function table, and the typed
// C symbols that compiled code calls directly.
#include "test_support.h"

#include <torch/version.h>

#include <cstring>

using namespace plugin_test;

namespace {

struct OpenResult {
    const SplPluginInfo* info;
    std::string error;
};

OpenResult open_with(uint32_t abi_version, const char* library_version) {
    const SplHostRequest request{abi_version, library_version, nullptr};
    const char* error = nullptr;
    const SplPluginInfo* info = plugin().open_fn()(&request, &error);
    return {info, error ? error : ""};
}

template <class Fn>
Fn typed(const char* name) {
    return reinterpret_cast<Fn>(plugin().function(name).typed);
}

} // namespace

TEST_CASE("opening checks the ABI and LibTorch versions") {
    const OpenResult ok = open_with(SPL_PLUGIN_ABI_VERSION, TORCH_VERSION);
    REQUIRE(ok.info != nullptr);
    CHECK(ok.info == &plugin().info()); // one table per process
    CHECK(ok.info->abi_version == SPL_PLUGIN_ABI_VERSION);
    CHECK(std::string(ok.info->plugin_name) == "torch");
    CHECK(std::string(ok.info->library_version) == TORCH_VERSION);

    const OpenResult wrong_abi = open_with(999, nullptr);
    CHECK(wrong_abi.info == nullptr);
    INFO(wrong_abi.error);
    CHECK(wrong_abi.error.find("999") != std::string::npos);
    CHECK(wrong_abi.error.find(std::to_string(SPL_PLUGIN_ABI_VERSION)) != std::string::npos);

    const OpenResult wrong_torch = open_with(SPL_PLUGIN_ABI_VERSION, "1.0.0");
    CHECK(wrong_torch.info == nullptr);
    INFO(wrong_torch.error);
    CHECK(wrong_torch.error.find("1.0.0") != std::string::npos);
    CHECK(wrong_torch.error.find(TORCH_VERSION) != std::string::npos);

    const char* error = "untouched";
    CHECK(plugin().open_fn()(nullptr, &error) == nullptr);
    CHECK(std::string(error).find("request") != std::string::npos);
}

TEST_CASE("the function table is sorted and searchable") {
    const SplPluginInfo& info = plugin().info();
    REQUIRE(info.nfunctions > 1000);
    int64_t unsorted = 0;
    for (int64_t i = 1; i < info.nfunctions; ++i)
        unsorted += std::strcmp(info.functions[i - 1].name, info.functions[i].name) < 0 ? 0 : 1;
    CHECK(unsorted == 0);
    // One line per malformed entry, so that a failure lists them all.
    std::string malformed;
    for (int64_t i = 0; i < info.nfunctions; ++i) {
        const SplFunction& fn = info.functions[i];
        const bool well_formed = info.find(fn.name) == &fn && fn.boxed && fn.typed && fn.nrequired <= fn.nparams &&
                                 std::string(fn.signature).rfind(std::string("extern fn ") + fn.name + "(", 0) == 0;
        if (!well_formed) malformed += std::string(fn.name) + "\n";
    }
    CHECK(malformed == "");
    CHECK(info.find("rt_torch_no_such_function") == nullptr);
    CHECK(info.find("") == nullptr);
    CHECK(info.find(nullptr) == nullptr);

    const SplFunction& add = plugin().function("rt_torch_add_Tensor");
    CHECK(add.nparams == 3);
    CHECK(add.nrequired == 2);
    CHECK(std::string(add.params[1].name) == "other");
    CHECK(std::string(add.params[2].simple_type) == "any");
    CHECK(std::string(add.params[2].default_value) == "1");
    CHECK(std::string(add.return_type) == "i64");
}

TEST_CASE_FIXTURE(LeakChecked, "typed C symbols") {
    using AddFn = int64_t (*)(int64_t, int64_t, SplValue);
    using PendingFn = bool (*)();
    using LastErrorFn = const char* (*)();
    const AddFn add = typed<AddFn>("rt_torch_add_Tensor");
    const PendingFn pending = typed<PendingFn>("rt_torch_error_pending");
    const LastErrorFn last_error = typed<LastErrorFn>("rt_torch_last_error");

    const Input a = input({2, 3}, 111), b = input({3}, 112);
    SplValue alpha{};
    alpha.tag = SPL_F64;
    alpha.as.f = 0.5;
    const int64_t sum = add(a.h, b.h, alpha);
    REQUIRE(sum != 0);
    CHECK_FALSE(pending());
    expect_same(sum, at::add(a.ref, b.ref, 0.5));
    plugin().free(sum); // typed results are not seen by the boxed host: free by hand

    const int64_t bad = add(a.h, 12345, alpha);
    CHECK(bad == 0);
    CHECK(pending());
    CHECK(std::string(last_error()).find("12345") != std::string::npos);

    const int64_t good = add(a.h, b.h, alpha); // success clears the pending flag
    CHECK_FALSE(pending());
    plugin().free(good);
}

// The plugin refuses a LibTorch other than the one it was built against; that
// rests on finding the loaded LibTorch's version, checked here on both builds.
TEST_CASE("the plugin finds the version of the LibTorch loaded in the process") {
    const std::string loaded = op("rt_torch_loaded_version", {}).as_text();
    CHECK(loaded.substr(0, loaded.find('+')) == TORCH_VERSION);
}
