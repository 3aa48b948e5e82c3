// big_stack.h — runs work on a thread with a large stack: the tree walker recurses on the C++
// stack, and deep Simple recursion (bounded by --max-depth) needs more than a default thread's.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <functional>

namespace spl {

inline void run_on_big_stack(const std::function<void()>& work) {
    auto body = [](void* p) -> void* {
        (*static_cast<const std::function<void()>*>(p))();
        return nullptr;
    };
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(512) << 20);
    pthread_t thread;
    if (pthread_create(&thread, &attr, body, const_cast<std::function<void()>*>(&work)) != 0)
        work();
    else
        pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
}

} // namespace spl
