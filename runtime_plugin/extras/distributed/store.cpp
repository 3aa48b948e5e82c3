// torch.distributed's key-value stores: TCPStore, FileStore, HashStore, PrefixStore, and their
// set/get/add/wait/check/delete_key/num_keys. Values cross as text.
#include "extras/distributed/dist_support.h"
#include "extras/io/io_support.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdlib>

namespace spl::dist {

std::vector<std::string> split_keys(const char* keys) {
    std::vector<std::string> out;
    std::string all(keys);
    size_t start = 0;
    while (start <= all.size()) {
        const size_t end = all.find('\n', start);
        out.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

namespace {

int64_t insert_store(c10::intrusive_ptr<c10d::Store> s) {
    return HandleTable::instance().insert_object(std::make_shared<StoreObject>(std::move(s)));
}

} // namespace

} // namespace spl::dist

extern "C" {

// TCPStore(host_name, port, world_size (-1: None), is_master, timeout, wait_for_workers).
SPL_TORCH_EXPORT int64_t rt_torch_dist_tcp_store(const char* host, int64_t port, int64_t world_size, bool is_master,
                                                 int64_t timeout_ms, bool wait_for_workers) {
    return spl::guarded<int64_t>(__func__, [&] {
        TORCH_CHECK(port >= 0 && port <= 65535, "port must be in [0, 65535], got ", port);
        c10d::TCPStoreOptions opts;
        opts.port = static_cast<std::uint16_t>(port);
        opts.isServer = is_master;
        if (world_size >= 0) opts.numWorkers = static_cast<std::size_t>(world_size);
        opts.waitWorkers = wait_for_workers;
        opts.timeout = spl::dist::millis(timeout_ms);
        return spl::dist::insert_store(c10::make_intrusive<c10d::TCPStore>(host, opts));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_tcp_store_port(int64_t store) {
    return spl::guarded<int64_t>(__func__, [&] {
        auto s = spl::dist::store(store, "store");
        auto* tcp = dynamic_cast<c10d::TCPStore*>(s.get());
        TORCH_CHECK(tcp != nullptr, "not a TCPStore");
        return static_cast<int64_t>(tcp->getPort());
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_file_store(const char* path, int64_t world_size) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::dist::insert_store(c10::make_intrusive<c10d::FileStore>(path, static_cast<int>(world_size)));
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_hash_store(void) {
    return spl::guarded<int64_t>(__func__,
                                 [&] { return spl::dist::insert_store(c10::make_intrusive<c10d::HashStore>()); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_prefix_store(const char* prefix, int64_t store) {
    return spl::guarded<int64_t>(__func__, [&] {
        return spl::dist::insert_store(
            c10::make_intrusive<c10d::PrefixStore>(prefix, spl::dist::store(store, "store")));
    });
}

SPL_TORCH_EXPORT void rt_torch_dist_store_set(int64_t store, const char* key, const char* value) {
    spl::guarded<void>(__func__, [&] {
        const std::string v(value);
        spl::dist::store(store, "store")->set(key, std::vector<uint8_t>(v.begin(), v.end()));
    });
}

SPL_TORCH_EXPORT const char* rt_torch_dist_store_get(int64_t store, const char* key) {
    return spl::guarded<const char*>(__func__, [&] {
        const std::vector<uint8_t> v = spl::dist::store(store, "store")->get(key);
        std::string value(v.begin(), v.end());
        // PyTorch returns bytes; a Simple text holds neither a NUL nor a broken character.
        if (value.find('\0') != std::string::npos || !spl::io::valid_utf8(value))
            throw spl::SplError("the value of key '" + std::string(key) + "' is " + std::to_string(value.size()) +
                                " bytes that are not UTF-8 text: lib.torch's Store.get returns text");
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(value);
    });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_store_add(int64_t store, const char* key, int64_t amount) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::dist::store(store, "store")->add(key, amount); });
}

// wait(keys, timeout): timeout_ms < 0 waits for the store's own timeout.
SPL_TORCH_EXPORT void rt_torch_dist_store_wait(int64_t store, const char* keys, int64_t timeout_ms) {
    spl::guarded<void>(__func__, [&] {
        auto s = spl::dist::store(store, "store");
        if (timeout_ms < 0)
            s->wait(spl::dist::split_keys(keys));
        else
            s->wait(spl::dist::split_keys(keys), spl::dist::millis(timeout_ms));
    });
}

SPL_TORCH_EXPORT bool rt_torch_dist_store_check(int64_t store, const char* keys) {
    return spl::guarded<bool>(__func__,
                              [&] { return spl::dist::store(store, "store")->check(spl::dist::split_keys(keys)); });
}

SPL_TORCH_EXPORT bool rt_torch_dist_store_delete_key(int64_t store, const char* key) {
    return spl::guarded<bool>(__func__, [&] { return spl::dist::store(store, "store")->deleteKey(key); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_store_num_keys(int64_t store) {
    return spl::guarded<int64_t>(__func__, [&] { return spl::dist::store(store, "store")->getNumKeys(); });
}

SPL_TORCH_EXPORT void rt_torch_dist_store_set_timeout(int64_t store, int64_t timeout_ms) {
    spl::guarded<void>(__func__, [&] { spl::dist::store(store, "store")->setTimeout(spl::dist::millis(timeout_ms)); });
}

SPL_TORCH_EXPORT int64_t rt_torch_dist_store_timeout_ms(int64_t store) {
    return spl::guarded<int64_t>(
        __func__, [&] { return static_cast<int64_t>(spl::dist::store(store, "store")->getTimeout().count()); });
}

// The environment variable `name`, or nil where it is not set (os.environ.get).
SPL_TORCH_EXPORT SplValue rt_torch_getenv(const char* name) {
    return spl::guarded<SplValue>(__func__, [&] {
        const char* value = std::getenv(name);
        if (value == nullptr) return spl::v_nil();
        spl::ResultArena::current().reset();
        return spl::v_text(spl::ResultArena::current().text(value));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_tcp_store, "host", "port", "world_size", "is_master", "timeout_ms", "wait_for_workers")
SPL_EXTRA(rt_torch_dist_tcp_store_port, "store")
SPL_EXTRA(rt_torch_dist_file_store, "path", "world_size")
SPL_EXTRA(rt_torch_dist_hash_store)
SPL_EXTRA(rt_torch_dist_prefix_store, "prefix", "store")
SPL_EXTRA(rt_torch_dist_store_set, "store", "key", "value")
SPL_EXTRA(rt_torch_dist_store_get, "store", "key")
SPL_EXTRA(rt_torch_dist_store_add, "store", "key", "amount")
SPL_EXTRA(rt_torch_dist_store_wait, "store", "keys", "timeout_ms")
SPL_EXTRA(rt_torch_dist_store_check, "store", "keys")
SPL_EXTRA(rt_torch_dist_store_delete_key, "store", "key")
SPL_EXTRA(rt_torch_dist_store_num_keys, "store")
SPL_EXTRA(rt_torch_dist_store_set_timeout, "store", "timeout_ms")
SPL_EXTRA(rt_torch_dist_store_timeout_ms, "store")
SPL_EXTRA(rt_torch_getenv, "name")
