// What the files of PyTorch's .pt format (torch.save / torch.load) share:
//   pt.cpp               the entry points, rt_torch_pt_save and rt_torch_pt_load, and the
//                        object as a flat program (the op codes below) across the C ABI
//   pt_pickle_writer.cpp the program as a pickle, and the storages its tensors use
//   pt_archive.cpp       the zip archive: written with LibTorch's PyTorchStreamWriter,
//                        read with extras/io's zip reader, storages included
//   pt_unpickler.cpp     data.pkl run as a pickle machine, the object as a program
//   pt_ivalues.cpp       the program as c10::IValues and back (TorchScript's and AOTInductor's
//                        values: pt_ivalues.h)
#pragma once

#include "extras/io/io_support.h"

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spl::io::pt {

// The object as a flat program (the top of pt.cpp describes it): the op codes,
// the limits on it, and the program's arrays.
enum Op : int64_t { kNil = 0, kFalse, kTrue, kInt, kFloat, kText, kTensor, kList, kTuple, kDict };
constexpr int64_t kMaxDepth = 200; // containers nested deeper are refused, both ways
constexpr size_t kMaxOps = 50'000'000;
struct Program {
    std::vector<int64_t> ops;
    std::vector<std::string> texts;
    std::vector<double> floats;
    std::vector<at::Tensor> tensors;
};

// --- dtypes and storage classes ------------------------------------------------

struct StorageRow {
    const char* storage; // torch.<storage>, nullptr: UntypedStorage + the dtype (v3)
    const char* dtype;   // PyTorch's name
};
inline constexpr StorageRow kStorages[] = {
    {"DoubleStorage", "float64"},
    {"FloatStorage", "float32"},
    {"HalfStorage", "float16"},
    {"BFloat16Storage", "bfloat16"},
    {"LongStorage", "int64"},
    {"IntStorage", "int32"},
    {"ShortStorage", "int16"},
    {"CharStorage", "int8"},
    {"ByteStorage", "uint8"},
    {"BoolStorage", "bool"},
    {"ComplexDoubleStorage", "complex128"},
    {"ComplexFloatStorage", "complex64"},
    {nullptr, "uint16"},
    {nullptr, "uint32"},
    {nullptr, "uint64"},
    {nullptr, "float8_e4m3fn"},
    {nullptr, "float8_e5m2"},
    {nullptr, "float8_e4m3fnuz"},
    {nullptr, "float8_e5m2fnuz"},
};

// A storage the pickle's tensors use, which the archive holds once as `data/<key>`.
struct SavedStorage {
    std::string key;
    c10::Storage storage;
    c10::ScalarType dtype;
    c10::Device device;
    int64_t numel; // in elements of dtype
    int64_t first; // the first tensor (its index in `tensors`) that uses it
};

// The object's pickle (data.pkl), and the storages its tensors refer to.
struct PickledObject {
    std::string pickle;
    std::vector<SavedStorage> storages;
};

// How the pickle holds a tensor's storage.
enum class StorageForm {
    Archive, // torch.save: a persistent id naming the archive's record of it
    Inline,  // pickle.dumps: torch.storage._load_from_bytes of the storage in torch.save's
             // legacy (pre-zip) format, one copy per tensor, as Python pickles a tensor
};

// pt_pickle_writer.cpp: the program (rt_torch_pt_save's arguments) pickled as
// torch.save pickles the object (Archive), or as pickle.dumps does (Inline: no storages).
PickledObject pickle_program(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors,
                             StorageForm form = StorageForm::Archive);

// A storage a tensor in data.pkl refers to (its persistent id): its key, its
// dtype (nullopt: an UntypedStorage, whose numel counts bytes) and numel.
struct StorageRef {
    const std::string& key;
    std::optional<c10::ScalarType> dtype;
    int64_t numel;
};
// The whole storage as a 1-d tensor of `dtype`, read from the archive once.
using StorageLoader = std::function<at::Tensor(const StorageRef& storage, c10::ScalarType dtype)>;

// pt_unpickler.cpp: data.pkl run, and the object it builds as a program; `path`
// names the file in messages, `storage` gives each storage a tensor uses.
Program unpickle(const std::string& pickle, const std::string& path, StorageLoader storage);
// A pickle.dumps pickle (StorageForm::Inline) run as pickle.loads runs it: its
// tensors' storages are in it; a persistent id is refused. `what` names it in messages.
Program unpickle_inline(const std::string& pickle, const std::string& what);

// pt.cpp: the program as rt_torch_pt_load returns it, (ops, texts, floats, tensors),
// with a fresh handle per tensor.
SplValue program_value(Program p);

// pt_archive.cpp: the archive torch.save writes, in memory; and the object in
// the file at `path`, its tensors on `device`; and a storage of `dtype` from its
// bytes (nbytes a whole number of elements).
at::Tensor storage_from_bytes(const char* data, size_t nbytes, c10::ScalarType dtype, bool big_endian = false);
std::string zip_bytes(const std::string& pickle, const std::vector<SavedStorage>& storages);
Program load_file(const std::string& path, const c10::Device& device);

} // namespace spl::io::pt
