// PyTorch's torch.save / torch.load files (the zip format PyTorch writes since
// 1.6), for lib.torch.save and lib.torch.load (spl_stubs/lib/torch/serialization.spl).
//
// rt_torch_pt_save pickles the object (pt_pickle_writer.cpp) and writes the
// archive (pt_archive.cpp); rt_torch_pt_load reads it (pt_archive.cpp) and runs
// its pickle (pt_unpickler.cpp). pt_format.h lists what they share.
//
// The object crosses the C ABI as a flat program (no dicts cross): `ops` in
// prefix order, with operands drawn in order from the other arrays:
//     0 nil   1 false   2 true
//     3 INT v        v is the next item of ops
//     4 FLOAT        the next item of floats
//     5 TEXT         the next item of texts
//     6 TENSOR       the next item of tensors (a handle)
//     7 LIST n       n is the next item of ops; n values follow
//     8 TUPLE n      n values follow
//     9 DICT n       n (key, value) pairs follow
// rt_torch_pt_save takes (path, ops, texts, floats, tensors); rt_torch_pt_load
// returns (ops, texts, floats, tensors) with a fresh handle per TENSOR op.
#include "extras/io/io_support.h"
#include "extras/io/pt_format.h"

#include <optional>
#include <string>
#include <utility>

namespace spl::io::pt {

SplValue program_value(Program p) {
    spl::ResultArena& arena = spl::ResultArena::current();
    arena.reset();
    SplValue* ops = arena.values(p.ops.size());
    for (size_t i = 0; i < p.ops.size(); ++i) ops[i] = spl::v_i64(p.ops[i]);
    const SplValue texts = spl::io::text_array(p.texts);
    SplValue* floats = arena.values(p.floats.size());
    for (size_t i = 0; i < p.floats.size(); ++i) floats[i] = spl::v_f64(p.floats[i]);
    SplValue* handles = arena.values(p.tensors.size());
    for (size_t i = 0; i < p.tensors.size(); ++i) handles[i] = spl::v_i64(spl::new_handle(std::move(p.tensors[i])));
    return spl::tuple_value({spl::v_array(ops, static_cast<int64_t>(p.ops.size())), texts,
                             spl::v_array(floats, static_cast<int64_t>(p.floats.size())),
                             spl::v_array(handles, static_cast<int64_t>(p.tensors.size()))});
}

} // namespace spl::io::pt

namespace {

using spl::io::fail;
using spl::io::pt::Program;

} // namespace

extern "C" {

SPL_TORCH_EXPORT void rt_torch_pt_save(const char* path, SplI64Array ops, SplTextArray texts, SplF64Array floats,
                                       SplI64Array tensors) {
    spl::guarded<void>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        if (ops.len < 0 || (ops.len > 0 && !ops.data)) throw spl::SplError("ops: a list of integers is required");
        if (floats.len < 0 || (floats.len > 0 && !floats.data))
            throw spl::SplError("floats: a list of numbers is required");
        if (tensors.len < 0 || (tensors.len > 0 && !tensors.data))
            throw spl::SplError("tensors: a list of tensors is required");
        const spl::io::pt::PickledObject object =
            spl::io::pt::pickle_program(ops, spl::io::text_list(texts, "texts"), floats, tensors);
        std::string zip;
        try {
            zip = spl::io::pt::zip_bytes(object.pickle, object.storages);
        } catch (const c10::Error&) {
            fail(file, "cannot write the archive: " + spl::current_exception_text());
        }
        spl::io::AtomicWriter out(file);
        out.write(zip);
        out.commit();
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_pt_load(const char* path, const char* map_location) {
    return spl::guarded<SplValue>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const std::string_view where = spl::required_text(map_location, "map_location");
        std::optional<c10::Device> device;
        try {
            device = c10::Device(std::string(where));
        } catch (const c10::Error&) {
            throw spl::SplError("map_location: '" + std::string(where) + "' is not a device (\"cpu\", \"cuda:0\")");
        }
        Program p;
        try {
            p = spl::io::pt::load_file(file, *device);
        } catch (const c10::Error&) {
            fail(file, spl::current_exception_text());
        }
        return spl::io::pt::program_value(std::move(p));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_pt_save, "path", "ops", "texts", "floats", "tensors")
SPL_EXTRA_RETURNS(rt_torch_pt_load, "([i64], [text], [f64], [i64])", "path", "map_location")
