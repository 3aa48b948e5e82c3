// lib.torch.distributed's c10d layer (runtime_plugin/extras/distributed/) against c10d called
// directly: a HashStore's set/get/add/wait/check/delete_key/num_keys, and a 1-rank Gloo group's
// all_reduce, broadcast and all_gather. Groups of several ranks are tests/distributed's.
#include "test_support.h"

#if __has_include(<gloo/config.h>)
#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <cstdlib>
#include <string>

using namespace plugin_test;

namespace {

std::string text_of(const std::vector<uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }
std::vector<uint8_t> bytes_of(const std::string& text) { return std::vector<uint8_t>(text.begin(), text.end()); }

// c10d's message for a failing call (a c10::Error from 2.0, a std::system_error in 1.13's stores).
template <class F>
std::string c10d_error(F&& body) {
    try {
        body();
    } catch (const c10::Error& e) {
        return e.what_without_backtrace();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "a HashStore answers as c10d's HashStore does") {
    auto& p = plugin();
    const int64_t store = p.runtime("rt_torch_dist_hash_store").as_i64();
    c10d::HashStore direct;

    p.runtime("rt_torch_dist_store_set", {store, "key", "value"});
    direct.set("key", bytes_of("value"));
    CHECK(p.runtime("rt_torch_dist_store_get", {store, "key"}).as_text() == text_of(direct.get("key")));

    CHECK(p.runtime("rt_torch_dist_store_add", {store, "counter", 5}).as_i64() == direct.add("counter", 5));
    CHECK(p.runtime("rt_torch_dist_store_add", {store, "counter", -2}).as_i64() == direct.add("counter", -2));

    CHECK(p.runtime("rt_torch_dist_store_check", {store, "key\ncounter"}).as_bool() ==
          direct.check({"key", "counter"}));
    CHECK(p.runtime("rt_torch_dist_store_check", {store, "key\nmissing"}).as_bool() ==
          direct.check({"key", "missing"}));
    CHECK(p.runtime("rt_torch_dist_store_num_keys", {store}).as_i64() == direct.getNumKeys());
    CHECK(p.runtime("rt_torch_dist_store_delete_key", {store, "key"}).as_bool() == direct.deleteKey("key"));
    CHECK(p.runtime("rt_torch_dist_store_delete_key", {store, "key"}).as_bool() == direct.deleteKey("key"));
    CHECK(p.runtime("rt_torch_dist_store_num_keys", {store}).as_i64() == direct.getNumKeys());

    // a key that is set: wait returns; one that never is: c10d's timeout error, unchanged
    p.runtime("rt_torch_dist_store_wait", {store, "counter", 100});
    const std::string expected = c10d_error([&] { direct.wait({"never"}, std::chrono::milliseconds(50)); });
    const Outcome waited = p.try_runtime("rt_torch_dist_store_wait", {store, "never", 50});
    REQUIRE_FALSE(waited.ok);
    CHECK(waited.error == expected);

    // a PrefixStore writes "prefix/key" into the store under it
    const int64_t prefixed = p.runtime("rt_torch_dist_prefix_store", {"pre", store}).as_i64();
    p.runtime("rt_torch_dist_store_set", {prefixed, "k", "v"});
    CHECK(p.runtime("rt_torch_dist_store_get", {store, "pre/k"}).as_text() == "v");
    p.free(prefixed);
    p.free(store);
}

TEST_CASE_FIXTURE(LeakChecked, "a freed store handle is refused, a work handle is not a store") {
    auto& p = plugin();
    const int64_t store = p.runtime("rt_torch_dist_hash_store").as_i64();
    p.free(store);
    expect_error(p.try_runtime("rt_torch_dist_store_num_keys", {store}), {"rt_torch_dist_store_num_keys", "store"});
    const Input t = input({2}, 3);
    expect_error(p.try_runtime("rt_torch_dist_store_num_keys", {t.h}), {"rt_torch_dist_store_num_keys", "store"});
}

#if defined(USE_C10D_GLOO)
TEST_CASE_FIXTURE(LeakChecked, "a 1-rank Gloo group's all_reduce, broadcast and all_gather equal c10d's") {
    auto& p = plugin();
    if (!p.runtime("rt_torch_dist_gloo_available").as_bool()) {
        MESSAGE("skipped: the plugin was built without Gloo");
        return;
    }
    setenv("GLOO_SOCKET_IFNAME", "lo", 1);
    const int64_t store = p.runtime("rt_torch_dist_hash_store").as_i64();
    const int64_t group = p.runtime("rt_torch_dist_gloo_group", {store, 0, 1, 10000}).as_i64();
    CHECK(p.runtime("rt_torch_dist_group_rank", {group}).as_i64() == 0);
    CHECK(p.runtime("rt_torch_dist_group_size", {group}).as_i64() == 1);

    auto opts = c10d::ProcessGroupGloo::Options::create(std::chrono::milliseconds(10000));
    opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface("lo"));
    auto direct = c10::make_intrusive<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::HashStore>(), 0, 1, opts);

    const auto wait = [&](int64_t work) {
        CHECK(p.runtime("rt_torch_dist_work_wait", {work, -1}).as_bool());
        CHECK(p.runtime("rt_torch_dist_work_is_completed", {work}).as_bool());
        p.free(work);
    };
    for (const char* op : {"SUM", "MAX", "PRODUCT"}) {
        const Input t = input({2, 3}, 7);
        std::vector<at::Tensor> ref{t.ref.clone()};
        c10d::AllreduceOptions o;
        o.reduceOp = std::string(op) == "SUM"   ? c10d::ReduceOp::SUM
                     : std::string(op) == "MAX" ? c10d::ReduceOp::MAX
                                                : c10d::ReduceOp::PRODUCT;
        direct->allreduce(ref, o)->wait();
        wait(p.runtime("rt_torch_dist_all_reduce", {group, t.h, op}).as_i64());
        expect_same(t.h, ref[0]);
    }
    {
        const Input t = input({4}, 8);
        std::vector<at::Tensor> ref{t.ref.clone()};
        direct->broadcast(ref)->wait();
        wait(p.runtime("rt_torch_dist_broadcast", {group, t.h, 0}).as_i64());
        expect_same(t.h, ref[0]);
    }
    {
        const Input t = input({3}, 9);
        const Input out = upload(at::zeros({3}));
        std::vector<std::vector<at::Tensor>> ref_out{{at::zeros({3})}};
        std::vector<at::Tensor> ref_in{t.ref};
        direct->allgather(ref_out, ref_in)->wait();
        wait(p.runtime("rt_torch_dist_all_gather", {group, ints({out.h}), t.h}).as_i64());
        expect_same(out.h, ref_out[0][0]);
    }
    // an unknown reduction is refused by name
    const Input t = input({2}, 10);
    expect_error(p.try_runtime("rt_torch_dist_all_reduce", {group, t.h, "MEDIAN"}), {"unknown ReduceOp MEDIAN"});
    p.free(group);
    p.free(store);
}
#endif
