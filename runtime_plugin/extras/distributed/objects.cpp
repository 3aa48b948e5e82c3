// broadcast_object_list and all_gather_object's serialisation: a Simple value (the flat program
// lib.torch.save passes, extras/io/pt.cpp) as the pickle Python's pickle.dumps would read, in a
// uint8 tensor, and back; what torch.distributed's _object_to_tensor and _tensor_to_object do.
// Tensors inside objects are refused: their storages would need torch.save's archive.
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
        TORCH_CHECK(tensors.len == 0, "an object sent by broadcast_object_list or all_gather_object cannot hold a "
                                      "Tensor in lib.torch: send tensors with the collectives");
        const spl::io::pt::PickledObject object =
            spl::io::pt::pickle_program(ops, spl::io::text_list(texts, "texts"), floats, tensors);
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
        spl::io::pt::Program p = spl::io::pt::unpickle(
            pickle, "a received object", [](const spl::io::pt::StorageRef&, c10::ScalarType) -> at::Tensor {
                TORCH_CHECK(false, "a received object holds a Tensor: lib.torch receives objects without tensors");
            });
        spl::ResultArena& arena = spl::ResultArena::current();
        arena.reset();
        SplValue* op_values = arena.values(p.ops.size());
        for (size_t i = 0; i < p.ops.size(); ++i) op_values[i] = spl::v_i64(p.ops[i]);
        const SplValue text_values = spl::io::text_array(p.texts);
        SplValue* float_values = arena.values(p.floats.size());
        for (size_t i = 0; i < p.floats.size(); ++i) float_values[i] = spl::v_f64(p.floats[i]);
        return spl::tuple_value({spl::v_array(op_values, static_cast<int64_t>(p.ops.size())), text_values,
                                 spl::v_array(float_values, static_cast<int64_t>(p.floats.size())),
                                 spl::v_array(nullptr, 0)});
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_dist_pickle, "ops", "texts", "floats", "tensors")
SPL_EXTRA_RETURNS(rt_torch_dist_unpickle, "([i64], [text], [f64], [i64])", "tensor", "size")
