// The object collectives' serialisation: a Simple value (the flat program lib.torch.save
// passes, extras/io/pt.cpp) as the pickle Python's pickle.dumps writes, in a uint8 tensor,
// and back; what torch.distributed's _object_to_tensor and _tensor_to_object do. Tensors
// inside the object travel as Python pickles them (their storages in the pickle).
#include "extras/distributed/dist_support.h"
#include "extras/io/io_support.h"
#include "extras/io/pt_format.h"

#include <ATen/ops/empty.h>

#include <cstring>

extern "C" {

// The pickle of the object, as a 1-d uint8 tensor.
SPL_TORCH_EXPORT int64_t rt_torch_dist_pickle(SplI64Array ops, SplTextArray texts, SplF64Array floats,
                                              SplI64Array tensors) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::check_list(ops.len, ops.data, "ops");
        spl::check_list(floats.len, floats.data, "floats");
        spl::check_list(tensors.len, tensors.data, "tensors");
        const spl::io::pt::PickledObject object = spl::io::pt::pickle_program(
            ops, spl::io::text_list(texts, "texts"), floats, tensors, spl::io::pt::StorageForm::Inline);
        at::Tensor bytes = at::empty({static_cast<int64_t>(object.pickle.size())}, at::kByte);
        if (!object.pickle.empty()) std::memcpy(bytes.data_ptr(), object.pickle.data(), object.pickle.size());
        return spl::new_handle(std::move(bytes));
    });
}

// The object the first `size` bytes of a uint8 tensor pickle: (ops, texts, floats, tensors).
SPL_TORCH_EXPORT SplValue rt_torch_dist_unpickle(int64_t t, int64_t size) {
    return spl::guarded<SplValue>(__func__, [&] {
        const at::Tensor bytes = spl::tensor(t, "tensor").to(at::kByte).contiguous();
        TORCH_CHECK(size >= 0 && size <= bytes.numel(), "unpickle: size ", size, " is not within the tensor's ",
                    bytes.numel(), " bytes");
        const std::string pickle(static_cast<const char*>(bytes.data_ptr()), static_cast<size_t>(size));
        return spl::io::pt::program_value(spl::io::pt::unpickle_inline(pickle, "a received object"));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_pickle, "ops", "texts", "floats", "tensors")
SPL_EXTRA_RETURNS(rt_torch_dist_unpickle, "([i64], [text], [f64], [i64])", "tensor", "size")
