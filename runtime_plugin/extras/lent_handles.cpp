#include "extras/lent_handles.h"

#include "abi/error_guard.h"

namespace spl {

LentHandles::LentHandles(const std::vector<at::Tensor>& tensors) {
    for (const at::Tensor& t : tensors) items_.push_back(v_i64(t.defined() ? new_handle(t) : 0));
}

LentHandles::~LentHandles() {
    HandleTable& table = HandleTable::instance();
    for (const SplValue& v : items_)
        if (v.as.i != 0 && table.is_live(v.as.i)) table.release(v.as.i);
}

std::optional<at::Tensor> take_tensor(const SplValue& value, const std::string& what) {
    if (value.tag == SPL_NIL || (value.tag == SPL_I64 && value.as.i == 0)) return std::nullopt;
    HandleTable& table = HandleTable::instance();
    if (value.tag != SPL_I64 || !table.is_live(value.as.i))
        throw SplError(what + " must be a Tensor or None, got " + tag_name(value.tag));
    at::Tensor t = table.get(value.as.i, what.c_str());
    table.release(value.as.i);
    return t;
}

} // namespace spl
