// Tensors crossing a host callback (core/host_callbacks.h): handles lent to the host for one
// call, and handles the host gives back as a result.
#pragma once

#include "core/results.h"

#include <optional>
#include <string>
#include <vector>

namespace spl {

// New handles the host borrows for one callback (0 for an undefined tensor); released when
// the callback is over, whatever the host did with them.
class LentHandles {
public:
    explicit LentHandles(const std::vector<at::Tensor>& tensors);
    ~LentHandles();
    LentHandles(const LentHandles&) = delete;
    LentHandles& operator=(const LentHandles&) = delete;
    SplValue array() const { return v_array(items_.data(), static_cast<int64_t>(items_.size())); }
    SplValue item(size_t i) const { return items_.at(i); }

private:
    std::vector<SplValue> items_;
};

// A tensor the host gave back as a callback's result: a new handle (taken, and released here)
// or nil / 0 (none). Anything else is an error naming `what`.
std::optional<at::Tensor> take_tensor(const SplValue& value, const std::string& what);

} // namespace spl
