// spl_plugin.h's host callbacks, from the host's side of the contract: a C++ host table that
// records every call, retain and release. The plugin keeps a callable it was lent by retaining
// it, releases it exactly once when the graph node or hook holding it dies, passes a host's
// error on as the message of the call that ran it, never calls from a thread other than the
// one that lent the callable, and says so when the host offers no callbacks at all. Gradients
// that went through a host backward are compared with LibTorch's own.
#include "test_support.h"

#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace plugin_test;

namespace {

// A host: callables by id, with the ABI's reference counting checked as it goes.
class TestHost {
public:
    using Body = std::function<SplStatus(const SplValue* args, int32_t nargs, SplValue* result)>;

    TestHost() : table_{this, &call, &retain, &release} { reopen(&table_); }
    ~TestHost() { reopen(nullptr); } // later tests get a plugin without callbacks again
    TestHost(const TestHost&) = delete;
    TestHost& operator=(const TestHost&) = delete;

    // A callable with `id`, held by the host (one reference) until forget(id).
    void define(int64_t id, Body body) {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_[id] = Entry{std::move(body), 1, 0, 0};
    }
    void forget(int64_t id) { release(this, id); }
    Arg lend(int64_t id) const {
        SplValue v{};
        v.tag = SPL_CALLABLE;
        v.as.i = id;
        return Arg::raw(v);
    }
    template <class F>
    int64_t locked(F&& f) {
        std::lock_guard<std::mutex> lock(mutex_);
        return f();
    }
    int64_t retains(int64_t id) {
        return locked([&] { return entries_.at(id).retains; });
    }
    int64_t releases(int64_t id) {
        return locked([&] { return entries_.at(id).releases; });
    }
    int64_t refs(int64_t id) {
        return locked([&] { return entries_.at(id).refs; });
    }
    int64_t calls() {
        return locked([&] { return calls_; });
    }
    int64_t excess_releases() {
        return locked([&] { return excess_releases_; });
    }
    int64_t unknown_ids() {
        return locked([&] { return unknown_ids_; });
    }

    // The text a failing callable returns stays valid until the next call (the ABI's promise).
    SplStatus fail(SplValue* result, std::string message) {
        error_ = std::move(message);
        result->tag = SPL_ERROR;
        result->as.text = SplText{error_.c_str(), static_cast<int64_t>(error_.size())};
        return SPL_STATUS_ERROR;
    }
    SplStatus give(SplValue* result, std::vector<SplValue> items) {
        result_items_ = std::move(items);
        result->tag = SPL_ARRAY;
        result->as.array = SplArray{result_items_.data(), static_cast<int64_t>(result_items_.size())};
        return SPL_STATUS_OK;
    }

private:
    struct Entry {
        Body body;
        int64_t refs, retains, releases;
    };
    static void reopen(const SplHostCallbacks* callbacks) {
        const SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, callbacks};
        const char* error = nullptr;
        REQUIRE(plugin().open_fn()(&request, &error) != nullptr);
    }
    static SplStatus call(void* self, int64_t id, const SplValue* args, int32_t nargs, SplValue* result) {
        auto* host = static_cast<TestHost*>(self);
        Body body;
        {
            std::lock_guard<std::mutex> lock(host->mutex_);
            ++host->calls_;
            auto it = host->entries_.find(id);
            if (it == host->entries_.end() || it->second.refs <= 0) {
                ++host->unknown_ids_;
                return host->fail(result, "no callable " + std::to_string(id));
            }
            body = it->second.body;
        }
        return body(args, nargs, result);
    }
    static void retain(void* self, int64_t id) {
        auto* host = static_cast<TestHost*>(self);
        std::lock_guard<std::mutex> lock(host->mutex_);
        auto it = host->entries_.find(id);
        if (it == host->entries_.end()) {
            ++host->unknown_ids_;
            return;
        }
        ++it->second.refs;
        ++it->second.retains;
    }
    static void release(void* self, int64_t id) {
        auto* host = static_cast<TestHost*>(self);
        std::lock_guard<std::mutex> lock(host->mutex_);
        auto it = host->entries_.find(id);
        if (it == host->entries_.end() || it->second.refs <= 0) {
            ++host->excess_releases_; // an id released more often than it was retained
            return;
        }
        --it->second.refs;
        ++it->second.releases;
    }

    SplHostCallbacks table_;
    std::mutex mutex_;
    std::map<int64_t, Entry> entries_;
    int64_t calls_ = 0, excess_releases_ = 0, unknown_ids_ = 0;
    std::string error_;
    std::vector<SplValue> result_items_;
};

int64_t leaf(const at::Tensor& values) { return upload(values, /*requires_grad=*/true).h; }

Outcome backward_of_sum(int64_t y) {
    const int64_t total = op_handle("rt_torch_sum", {y});
    Outcome out = plugin().try_runtime("rt_torch_backward", {total, 0, false, false});
    plugin().free(total);
    return out;
}

int64_t grad_of(int64_t x) { return plugin().runtime("rt_torch_grad", {x}).as_i64(); }

} // namespace

TEST_CASE("a host that gives no callbacks gets a clear error from what needs them") {
    const int64_t x = leaf(at::ones({3}, at::kDouble));
    SplValue callable{};
    callable.tag = SPL_CALLABLE;
    callable.as.i = 1;
    expect_error(plugin().try_runtime("rt_torch_register_hook", {x, Arg::raw(callable)}),
                 {"hook", "gives the plugin no callbacks"});
    expect_error(plugin().try_runtime("rt_torch_register_hook", {x, 5}), {"hook must be a function, got i64"});
    plugin().free(x);
    expect_still_works();
}

TEST_CASE("a hook is retained while registered, called on backward, and released once") {
    TestHost host;
    const at::Tensor values = sample({3}, 4, at::kDouble);
    const int64_t x = leaf(values);
    const int64_t y = op_handle("rt_torch_mul_Scalar", {x, 3.0});
    std::vector<at::Tensor> seen;
    host.define(7, [&](const SplValue* args, int32_t nargs, SplValue* result) {
        REQUIRE(nargs == 1);
        seen.push_back(to_aten(args[0].as.i)); // borrowed: read, not kept
        const int64_t doubled = op_handle("rt_torch_mul_Scalar", {args[0].as.i, 2.0});
        result->tag = SPL_I64;
        result->as.i = doubled; // a new handle, given to the plugin
        return SPL_STATUS_OK;
    });
    const int64_t key = plugin().runtime("rt_torch_register_hook", {y, host.lend(7)}).as_i64();
    CHECK(host.retains(7) == 1);
    const Outcome done = backward_of_sum(y);
    REQUIRE(done.ok);
    REQUIRE(seen.size() == 1);
    CHECK(tensor_difference(seen[0], at::ones({3}, at::kDouble)) == "");
    const int64_t g = grad_of(x);
    expect_same(g, at::full({3}, 6.0, at::kDouble)); // 3 from the product, 2 from the hook
    plugin().runtime("rt_torch_remove_hook", {y, key});
    CHECK(host.releases(7) == 1);
    for (int64_t h : {g, y, x}) plugin().free(h);
    host.forget(7);
    CHECK(host.refs(7) == 0);
    CHECK(host.excess_releases() == 0);
    CHECK(host.unknown_ids() == 0);
}

TEST_CASE("a host backward gives LibTorch's gradient, and its node releases the callable once") {
    TestHost host;
    const at::Tensor values = sample({4}, 5, at::kDouble);
    const int64_t x = leaf(values);
    // forward, as a host runs it: exp without recording, then tied into the graph.
    const bool previous = plugin().runtime("rt_torch_no_grad_enter").as_bool();
    const int64_t r = op_handle("rt_torch_exp", {x});
    plugin().runtime("rt_torch_no_grad_exit", {previous});
    host.define(9, [&](const SplValue* args, int32_t nargs, SplValue* result) {
        REQUIRE(nargs == 2); // the gradients, the saved tensors: arrays of borrowed handles
        const int64_t g = args[0].as.array.items[0].as.i;
        const int64_t saved = args[1].as.array.items[0].as.i;
        return host.give(result, {plugin_host::Arg(op_handle("rt_torch_mul_Tensor", {g, saved})).value()});
    });
    const Value outs = plugin().runtime("rt_torch_function_apply", {"Exp", ints({x}), ints({r}), ints({r}), ints({}),
                                                                    ints({}), host.lend(9), true, false});
    const int64_t y = handles_of(outs).at(0);
    const int64_t node = plugin().runtime("rt_torch_grad_fn", {y}).as_i64();
    CHECK(plugin().runtime("rt_torch_node_name", {node}).as_text() == "ExpBackward");
    plugin().free(node);
    REQUIRE(backward_of_sum(y).ok);
    const at::Tensor reference = values.detach().clone().requires_grad_(true);
    reference.exp().sum().backward();
    const int64_t g = grad_of(x);
    expect_same(g, reference.grad());
    CHECK(host.retains(9) == 1);
    CHECK(host.releases(9) == 0); // y still holds the node
    for (int64_t h : {y, r}) plugin().free(h);
    CHECK(host.releases(9) == 1); // the node died with the last output
    for (int64_t h : {g, x}) plugin().free(h);
    host.forget(9);
    CHECK(host.excess_releases() == 0);
}

TEST_CASE("a host error ends backward with the host's message, and the graph is freed") {
    TestHost host;
    const int64_t x = leaf(at::ones({2}, at::kDouble));
    const int64_t y = op_handle("rt_torch_mul_Scalar", {x, 2.0});
    host.define(11, [&](const SplValue*, int32_t, SplValue* result) {
        return host.fail(result, "error: the host's hook failed\n  --> train.spl:3:5");
    });
    const int64_t key = plugin().runtime("rt_torch_register_hook", {y, host.lend(11)}).as_i64();
    const Outcome failed = backward_of_sum(y);
    CHECK_FALSE(failed.ok);
    CHECK(failed.error == "error: the host's hook failed\n  --> train.spl:3:5"); // as the host wrote it
    plugin().runtime("rt_torch_remove_hook", {y, key});
    for (int64_t h : {y, x}) plugin().free(h);
    CHECK(host.retains(11) == 1);
    CHECK(host.releases(11) == 1);
    host.forget(11);
    CHECK(host.excess_releases() == 0);
    expect_still_works();
}

TEST_CASE("the plugin calls the host only on the thread that lent the callable") {
    TestHost host;
    const int64_t x = leaf(at::ones({2}, at::kDouble));
    const int64_t y = op_handle("rt_torch_mul_Scalar", {x, 2.0});
    host.define(13, [&](const SplValue*, int32_t, SplValue* result) {
        result->tag = SPL_NIL;
        return SPL_STATUS_OK;
    });
    plugin().runtime("rt_torch_register_hook", {y, host.lend(13)});
    Outcome elsewhere;
    std::thread other([&] { elsewhere = backward_of_sum(y); });
    other.join();
    CHECK_FALSE(elsewhere.ok);
    CHECK(elsewhere.error.find("thread other than the host's") != std::string::npos);
    CHECK(host.calls() == 0);                // refused before calling
    const Outcome here = backward_of_sum(y); // on the lending thread the same graph runs the hook
    CHECK(here.ok);
    CHECK(host.calls() == 1);
    plugin().free(grad_of(x));
    for (int64_t h : {y, x}) plugin().free(h);
    CHECK(host.releases(13) == 1); // the hook died with y
    host.forget(13);
    CHECK(host.excess_releases() == 0);
}

TEST_CASE("a memory-peak region counts the CPU tensor bytes alive at the highest point") {
    const int64_t region = plugin().runtime("rt_torch_memory_peak_begin").as_i64();
    const int64_t a = op_handle("rt_torch_zeros", {ints({1024, 256}), "float32"}); // 1 MiB
    const int64_t b = op_handle("rt_torch_zeros", {ints({1024, 512}), "float32"}); // 2 MiB
    plugin().free(a);
    plugin().free(b);
    const int64_t c = op_handle("rt_torch_zeros", {ints({1024, 128}), "float32"}); // 0.5 MiB, after
    const int64_t peak = plugin().runtime("rt_torch_memory_peak_bytes", {region}).as_i64();
    CHECK(peak >= 3 * 1048576);
    CHECK(peak < 3 * 1048576 + 65536); // a and b together, nothing of c on top
    plugin().free(c);
    plugin().free(region);
    expect_error(plugin().try_runtime("rt_torch_memory_peak_bytes", {region}), {"region"});
}
