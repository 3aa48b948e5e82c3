// PyTorch's .pt format, the zip archive (pt_format.h).
//
// The archive: `<name>/data.pkl` (a pickle of the object, protocol 2, whose
// tensors refer to storages through persistent ids), `<name>/data/<key>` (each
// storage's raw little-endian bytes, 64-byte aligned), `<name>/byteorder`
// ("little"), `<name>/.format_version` ("1"), `<name>/.storage_alignment`
// ("64"), `<name>/version` ("3\n") and `<name>/.data/serialization_id`, as
// torch/serialization.py's _save writes them. Written with LibTorch's
// PyTorchStreamWriter (caffe2/serialize/inline_container.h) into memory, then
// to the file atomically (io_support.h); read with extras/io's own zip reader
// (zip_reader.h: every offset checked, every CRC-32 verified).
#include "extras/io/pt_format.h"
#include "extras/io/zip_reader.h"

#include <ATen/ops/empty.h>
#include <caffe2/serialize/inline_container.h>

#include <zlib.h>

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace spl::io::pt {

namespace {

// The writer's serialization id, which LibTorch 2.x writes itself in
// writeEndOfFile and 1.x does not know.
template <class W, class = void>
struct WritesSerializationId : std::false_type {};
template <class W>
struct WritesSerializationId<W, std::void_t<decltype(std::declval<W&>().serializationId())>> : std::true_type {};

} // namespace

std::string zip_bytes(const std::string& pickle, const std::vector<SavedStorage>& storages) {
    std::string out;
    caffe2::serialize::PyTorchStreamWriter writer([&out](const void* data, size_t n) -> size_t {
        out.append(static_cast<const char*>(data), n);
        return n;
    });
    writer.writeRecord("data.pkl", pickle.data(), pickle.size());
    writer.writeRecord(".format_version", "1", 1);
    writer.writeRecord(".storage_alignment", "64", 2);
    writer.writeRecord("byteorder", "little", 6);
    for (const SavedStorage& s : storages) {
        const int64_t elem = static_cast<int64_t>(c10::elementSize(s.dtype));
        const int64_t nbytes = s.numel * elem;
        if (nbytes == 0) {
            writer.writeRecord("data/" + s.key, "", 0);
            continue;
        }
        // The whole storage, as bytes on the CPU.
        at::Tensor whole = at::empty({0}, at::TensorOptions().dtype(s.dtype).device(s.device));
        whole.set_(s.storage, 0, {s.numel}, {1});
        whole = whole.cpu().contiguous();
        writer.writeRecord("data/" + s.key, whole.data_ptr(), static_cast<size_t>(nbytes));
    }
    if constexpr (!WritesSerializationId<caffe2::serialize::PyTorchStreamWriter>::value) {
        // LibTorch 1.x's writer has none: 2.x's form, 40 digits (a hash of the
        // record names, then a CRC-32 of the pickle), deterministic as 2.x's.
        uint64_t names = 1469598103934665603ull; // FNV-1a
        for (const std::string& name : writer.getAllWrittenRecords())
            for (const char c : name) names = (names ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(pickle.data()), static_cast<uInt>(pickle.size()));
        std::string a = std::to_string(names % 10000000000000000000ull), b = std::to_string(crc);
        const std::string id = std::string(20 - a.size(), '0') + a + std::string(20 - b.size(), '0') + b;
        writer.writeRecord(".data/serialization_id", id.data(), id.size());
    }
    writer.writeEndOfFile();
    return out;
}

at::Tensor storage_from_bytes(const char* data, size_t nbytes, c10::ScalarType dtype, bool big_endian) {
    const auto elem = static_cast<int64_t>(c10::elementSize(dtype));
    const bool is_bool = dtype == c10::kBool;
    at::Tensor base =
        at::empty({static_cast<int64_t>(nbytes) / elem}, at::TensorOptions().dtype(is_bool ? c10::kByte : dtype));
    if (nbytes > 0) std::memcpy(base.data_ptr(), data, nbytes);
    if (big_endian) spl::io::swap_bytes(base.data_ptr(), nbytes, at::isComplexType(dtype) ? elem / 2 : elem);
    // A byte that is neither 0 nor 1 is no valid bool: read as (byte != 0).
    return is_bool ? base.ne(0) : base;
}

Program load_file(const std::string& path, const c10::Device& device) {
    const spl::io::InputFile file(path);
    const std::string bytes = file.read_all();
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    // torch.save's legacy format (before 1.6, or _use_new_zipfile_serialization=False)
    // starts with a pickled magic number.
    if (bytes.size() >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5)
        fail(path, "a torch.save file in the legacy format (a bare pickle: PyTorch before 1.6, or "
                   "_use_new_zipfile_serialization=False) is not supported; save it again with a current torch.save");
    spl::io::ZipReader zip(bytes, path, "a PyTorch file (torch.save writes a zip archive)");
    const std::vector<spl::io::ZipMember> members = zip.members();
    std::string prefix;
    bool found = false, torchscript = false;
    for (const auto& m : members) {
        const size_t slash = m.name.find('/');
        if (slash != std::string::npos && m.name.compare(slash, std::string::npos, "/data.pkl") == 0) {
            prefix = m.name.substr(0, slash + 1);
            found = true;
            break;
        }
        if (m.name.find("constants.pkl") != std::string::npos) torchscript = true;
    }
    if (!found) {
        if (torchscript) fail(path, "a TorchScript archive (torch.jit.save), not a torch.save file: not supported");
        fail(path, "not a torch.save file: the zip archive has no <name>/data.pkl");
    }
    std::map<std::string, const spl::io::ZipMember*> by_name;
    for (const auto& m : members) by_name[m.name] = &m;
    const auto record = [&](const std::string& name) -> std::optional<std::string> {
        const auto it = by_name.find(prefix + name);
        if (it == by_name.end()) return std::nullopt;
        return zip.data(*it->second);
    };
    bool big_endian = false;
    if (const auto order = record("byteorder")) {
        if (*order == "big")
            big_endian = true;
        else if (*order != "little")
            fail(path, "byteorder is neither little nor big: '" + order->substr(0, 20) + "'");
    }
    if (const auto version = record("version")) {
        std::string v = *version;
        while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
        if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos)
            fail(path, "the version record is not a number: '" + version->substr(0, 20) + "'");
        if (std::stoi(v) > 10) fail(path, "format version " + v + " is newer than this reader knows");
    }
    const std::string pickle = *record("data.pkl");

    struct Loaded {
        at::Tensor base;
    };
    std::map<std::string, Loaded> storages;
    const auto storage = [&](const StorageRef& s, c10::ScalarType dtype) -> at::Tensor {
        const auto it = storages.find(s.key);
        if (it != storages.end()) {
            if (it->second.base.scalar_type() != dtype)
                fail(path, "storage '" + s.key + "' is used as " + spl::dtype_name(it->second.base.scalar_type()) +
                               " and as " + spl::dtype_name(dtype));
            return it->second.base;
        }
        const std::string name = "data/" + s.key;
        const auto m = by_name.find(prefix + name);
        if (m == by_name.end()) fail(path, "storage '" + s.key + "' has no record " + prefix + name);
        const int64_t elem = static_cast<int64_t>(c10::elementSize(dtype));
        // A typed storage counts elements; an untyped one (v3) bytes.
        uint64_t nbytes = 0;
        if (s.dtype ? __builtin_mul_overflow(static_cast<uint64_t>(s.numel), static_cast<uint64_t>(elem), &nbytes)
                    : (nbytes = static_cast<uint64_t>(s.numel), false))
            fail(path, "storage '" + s.key + "': its size overflows");
        if (m->second->size != nbytes)
            fail(path, "storage '" + s.key + "' should hold " + std::to_string(nbytes) + " bytes, its record " + name +
                           " holds " + std::to_string(m->second->size));
        if (nbytes % static_cast<uint64_t>(elem) != 0)
            fail(path, "storage '" + s.key + "' holds " + std::to_string(nbytes) + " bytes, not a whole number of " +
                           spl::dtype_name(dtype));
        const std::string data = zip.data(*m->second);
        at::Tensor base = storage_from_bytes(data.data(), nbytes, dtype, big_endian);
        if (!device.is_cpu()) base = base.to(device);
        storages[s.key] = Loaded{base};
        return base;
    };
    return unpickle(pickle, path, storage);
}

} // namespace spl::io::pt
