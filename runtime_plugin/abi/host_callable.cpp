#include "abi/host_callable.h"

#include "abi/error_guard.h"

#include <atomic>
#include <stdexcept>
#include <string>

namespace spl {

namespace {

// Process-wide configuration, not state: the table the host handed over when it opened the
// plugin (the ABI asks it to outlive the plugin).
std::atomic<const SplHostCallbacks*> g_host_callbacks{nullptr};

} // namespace

void set_host_callbacks(const SplHostCallbacks* callbacks) noexcept {
    g_host_callbacks.store(callbacks, std::memory_order_release);
}

bool host_callbacks_given() noexcept { return g_host_callbacks.load(std::memory_order_acquire) != nullptr; }

HostCallable::HostCallable(const SplValue& value, const char* what)
    : host_(g_host_callbacks.load(std::memory_order_acquire)), id_(0), thread_(std::this_thread::get_id()) {
    if (value.tag != SPL_CALLABLE)
        throw SplError(std::string(what) + " must be a function, got " + tag_name(value.tag));
    if (!host_ || !host_->call || !host_->retain || !host_->release)
        throw SplError(std::string(what) + ": this host gives the plugin no callbacks (SplHostRequest.callbacks is "
                                           "NULL), so it cannot run host code");
    id_ = value.as.i;
    host_->retain(host_->host, id_);
}

HostCallable::~HostCallable() {
    if (id_ != 0) host_->release(host_->host, id_);
}

SplValue HostCallable::call(const SplValue* args, int32_t nargs, const char* purpose) const {
    if (!callable_here())
        throw SplError(std::string(purpose) +
                       " was reached on a thread other than the host's, which runs host code alone; nothing "
                       "was called (a backward that runs on an autograd device thread cannot call back)");
    SplValue result{};
    if (host_->call(host_->host, id_, args, nargs, &result) != SPL_STATUS_OK) {
        // The host's message as it is (its traceback included), not prefixed as the plugin's own errors are.
        if (result.tag == SPL_ERROR && result.as.text.ptr) throw std::runtime_error(result.as.text.ptr);
        throw SplError(std::string(purpose) + " failed in the host, which gave no message");
    }
    return result;
}

} // namespace spl
