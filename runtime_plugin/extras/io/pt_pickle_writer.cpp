// PyTorch's .pt format, writing (pt_format.h): the object program that
// rt_torch_pt_save takes (pt.cpp), pickled as torch.save pickles the object,
// with the storages its tensors use (pt_archive.cpp writes them).
//
// A tensor is pickled as Python pickles it:
//     torch._utils._rebuild_tensor_v2(
//         persistent_id(("storage", torch.FloatStorage, "0", "cpu", numel)),
//         storage_offset, size, stride, requires_grad, collections.OrderedDict())
// (dtypes without a legacy storage class, uint16/32/64 and float8, through
// _rebuild_tensor_v3 with torch.storage.UntypedStorage and the dtype, as 2.x
// does). Tensors that share a storage share it in the file, which holds the
// whole storage once, as torch.save does. The pickle uses only globals that
// torch.load(weights_only=True) allows.
//
// pickle.dumps (StorageForm::Inline, what torch.distributed's object collectives
// send) holds each tensor's storage in the pickle instead:
//     torch._utils._rebuild_tensor_v2(torch.storage._load_from_bytes(b"..."), ...)
// where the bytes are torch.save(storage, _use_new_zipfile_serialization=False):
// five protocol-2 pickles (the magic number, the format version, the system's
// sizes, the storage's persistent id, its key in a list), then the element count
// as 8 little-endian bytes and the elements. Python gives every tensor its own
// copy of its whole storage, so views of one storage do not share it once read.
#include "extras/io/pt_format.h"

#include <ATen/ops/empty.h>

#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace spl::io::pt {

namespace {

const StorageRow* row_of(c10::ScalarType type) {
    const char* name = spl::dtype_name(type);
    for (const StorageRow& r : kStorages)
        if (std::strcmp(r.dtype, name) == 0) return &r;
    return nullptr;
}

class PickleWriter {
public:
    std::string out;

    void proto(char version) {
        out += '\x80';
        out += version;
    }
    void stop() { out += '.'; }
    void mark() { out += '('; }
    void op(char c) { out += c; }
    void none() { out += 'N'; }
    void boolean(bool b) { out += b ? '\x88' : '\x89'; }
    void integer(int64_t v) {
        if (v >= 0 && v <= 0xFF) {
            out += 'K';
            out += static_cast<char>(v);
        } else if (v >= 0 && v <= 0xFFFF) {
            out += 'M';
            out += static_cast<char>(v & 0xFF);
            out += static_cast<char>(v >> 8);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            out += 'J';
            le(static_cast<uint32_t>(static_cast<int32_t>(v)), 4);
        } else {
            // LONG1: the shortest little-endian two's complement.
            unsigned char bytes[8];
            std::memcpy(bytes, &v, 8);
            int n = 8;
            while (n > 1 && ((bytes[n - 1] == 0x00 && !(bytes[n - 2] & 0x80)) ||
                             (bytes[n - 1] == 0xFF && (bytes[n - 2] & 0x80))))
                --n;
            out += '\x8a';
            out += static_cast<char>(n);
            out.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(n));
        }
    }
    void floating(double d) {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        out += 'G';
        for (int i = 7; i >= 0; --i) out += static_cast<char>((bits >> (8 * i)) & 0xFF);
    }
    void text(const std::string& s) {
        out += 'X';
        le(static_cast<uint32_t>(s.size()), 4);
        out += s;
    }
    void bytes(const std::string& b) {
        if (b.size() <= UINT32_MAX) {
            out += 'B';
            le(static_cast<uint32_t>(b.size()), 4);
        } else {
            out += '\x8e'; // BINBYTES8
            le(static_cast<uint32_t>(b.size()), 4);
            le(static_cast<uint32_t>(static_cast<uint64_t>(b.size()) >> 32), 4);
        }
        out += b;
    }
    void global(const std::string& module, const std::string& name) {
        out += 'c';
        out += module + "\n" + name + "\n";
    }
    void int_tuple(c10::IntArrayRef values) {
        if (values.empty()) {
            op(')');
            return;
        }
        if (values.size() > 3) mark();
        for (int64_t v : values) integer(v);
        op(values.size() == 1 ? '\x85' : values.size() == 2 ? '\x86' : values.size() == 3 ? '\x87' : 't');
    }

private:
    void le(uint32_t v, int n) {
        for (int i = 0; i < n; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
    }
};

// torch.save(storage, _use_new_zipfile_serialization=False) of t's whole storage,
// as torch.serialization._legacy_save writes it (the top of the file).
std::string legacy_storage(const at::Tensor& t, const StorageRow& row) {
    const auto elem = static_cast<int64_t>(c10::elementSize(t.scalar_type()));
    const int64_t numel = static_cast<int64_t>(t.storage().nbytes()) / elem;
    const at::Tensor whole = at::empty({0}, t.options()).set_(t.storage(), 0, {numel}, {1}).cpu().contiguous();
    PickleWriter w;
    w.proto(2); // the magic number 0x1950a86a20f9469cfc6c, an 80-bit LONG1
    w.out += "\x8a\x0a";
    w.out.append("\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 10);
    w.stop();
    w.proto(2); // the format version
    w.integer(1001);
    w.stop();
    w.proto(2); // sys_info
    w.op('}');
    w.mark();
    w.text("protocol_version");
    w.integer(1001);
    w.text("little_endian");
    w.boolean(true);
    w.text("type_sizes");
    w.op('}');
    w.mark();
    for (const auto& [name, size] : {std::pair{"short", 2}, {"int", 4}, {"long", 4}}) {
        w.text(name);
        w.integer(size);
    }
    w.op('u');
    w.op('u');
    w.stop();
    w.proto(2); // the object: the storage, as its persistent id (no view metadata)
    w.mark();
    w.text("storage");
    w.global("torch", row.storage);
    w.text("0");
    w.text(t.device().is_cpu() ? "cpu" : t.device().str());
    w.integer(numel);
    w.none();
    w.op('t');
    w.op('Q');
    w.stop();
    w.proto(2); // the storages' keys
    w.op(']');
    w.text("0");
    w.op('a');
    w.stop();
    for (int i = 0; i < 8; ++i) w.out += static_cast<char>((static_cast<uint64_t>(numel) >> (8 * i)) & 0xFF);
    w.out.append(static_cast<const char*>(whole.data_ptr()), static_cast<size_t>(numel * elem));
    return std::move(w.out);
}

class Saver {
public:
    Saver(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors, StorageForm form)
        : ops_(ops), texts_(std::move(texts)), floats_(floats), tensors_(tensors), form_(form) {}

    std::string pickle() {
        // torch.save writes protocol 2; pickle.dumps' bytes (BINBYTES) need 3.
        w_.proto(form_ == StorageForm::Archive ? 2 : 3);
        // The open containers: (op, values still to come).
        struct Open {
            int64_t op, left;
        };
        std::vector<Open> open;
        size_t values = 0; // complete top-level values
        while (pos_ < ops_.len) {
            if (values == 1 && open.empty()) break;
            const int64_t code = ops_.data[pos_++];
            bool complete = true;
            switch (code) {
            case kNil: w_.none(); break;
            case kFalse: w_.boolean(false); break;
            case kTrue: w_.boolean(true); break;
            case kInt: w_.integer(operand("INT")); break;
            case kFloat:
                if (float_pos_ >= floats_.len) program_error("FLOAT past the end of floats");
                w_.floating(floats_.data[float_pos_++]);
                break;
            case kText: {
                if (text_pos_ >= texts_.size()) program_error("TEXT past the end of texts");
                const std::string& s = texts_[text_pos_++];
                // Python decodes the pickle's texts as UTF-8 and fails the whole load on one bad text.
                if (!spl::io::valid_utf8(s))
                    throw spl::SplError("texts[" + std::to_string(text_pos_ - 1) + "] is not UTF-8");
                w_.text(s);
                break;
            }
            case kTensor: tensor(); break;
            case kList:
            case kTuple:
            case kDict: {
                const int64_t n = operand("a container's length");
                if (n < 0) program_error("a negative container length");
                if (static_cast<int64_t>(open.size()) >= kMaxDepth)
                    throw spl::SplError("the object nests containers more than " + std::to_string(kMaxDepth) + " deep");
                if (code == kList) w_.op(']');
                if (code == kDict) w_.op('}');
                if (n == 0) {
                    if (code == kTuple) w_.op(')');
                    break;
                }
                w_.mark();
                open.push_back({code, code == kDict ? 2 * n : n});
                complete = false;
                break;
            }
            default: program_error("unknown op " + std::to_string(code));
            }
            // A value is complete: it may complete its containers in turn.
            while (complete) {
                if (open.empty()) {
                    ++values;
                    break;
                }
                if (--open.back().left > 0) break;
                const int64_t done = open.back().op;
                open.pop_back();
                w_.op(done == kList ? 'e' : done == kDict ? 'u' : 't');
            }
        }
        if (values != 1 || !open.empty()) program_error("the ops end inside a value");
        if (pos_ != ops_.len || text_pos_ != texts_.size() || float_pos_ != floats_.len || tensor_pos_ != tensors_.len)
            program_error("operands are left over after the value");
        w_.stop();
        return std::move(w_.out);
    }

    const std::vector<SavedStorage>& storages() const { return storages_; }

private:
    [[noreturn]] void program_error(const std::string& what) const {
        throw spl::SplError("a malformed object program (lib.torch.serialization builds it): " + what + " at op " +
                            std::to_string(pos_));
    }
    int64_t operand(const char* what) {
        if (pos_ >= ops_.len) program_error(std::string(what) + " past the end of ops");
        return ops_.data[pos_++];
    }

    void tensor() {
        if (tensor_pos_ >= tensors_.len) program_error("TENSOR past the end of tensors");
        const int64_t index = tensor_pos_++;
        const std::string what = "tensor " + std::to_string(index);
        const at::Tensor& given = spl::tensor(tensors_.data[index], "tensor");
        const bool requires_grad = given.requires_grad();
        at::Tensor t = given.detach();
        if (t.is_quantized()) throw spl::SplError(what + ": a quantized tensor cannot be saved; dequantize() it first");
        if (t.layout() != c10::kStrided)
            throw spl::SplError(what + ": only dense (strided) tensors can be saved, this one is " +
                                spl::layout_name(t.layout()) + "; to_dense() it first");
        // Lazy views (a conjugate, a negative, a zero tensor) get storages of their own.
        if (t._is_zerotensor() || t.is_conj() || t.is_neg()) t = spl::io::dense_cpu(tensors_.data[index], what);
        const StorageRow* row = row_of(t.scalar_type());
        if (!row)
            throw spl::SplError(what + ": torch.save of a " + std::string(spl::dtype_name(t.scalar_type())) +
                                " tensor is not supported here");
        w_.global("torch._utils", row->storage ? "_rebuild_tensor_v2" : "_rebuild_tensor_v3");
        w_.mark();
        if (form_ == StorageForm::Inline)
            inline_storage(t, *row, what);
        else
            archived_storage(t, *row, index, what);
        w_.integer(t.storage_offset());
        w_.int_tuple(t.sizes());
        w_.int_tuple(t.strides());
        w_.boolean(requires_grad);
        w_.global("collections", "OrderedDict");
        w_.op(')');
        w_.op('R');
        if (!row->storage) w_.global("torch", row->dtype);
        w_.op('t');
        w_.op('R');
    }

    // The storage as a persistent id naming the archive's record of it, written once.
    void archived_storage(const at::Tensor& t, const StorageRow& row, int64_t index, const std::string& what) {
        const c10::StorageImpl* impl = t.storage().unsafeGetStorageImpl();
        auto found = by_impl_.find(impl);
        const SavedStorage* s = nullptr;
        if (found == by_impl_.end()) {
            const int64_t elem = static_cast<int64_t>(c10::elementSize(t.scalar_type()));
            storages_.push_back(SavedStorage{std::to_string(storages_.size()), t.storage(), t.scalar_type(), t.device(),
                                             static_cast<int64_t>(t.storage().nbytes()) / elem, index});
            by_impl_[impl] = storages_.size() - 1;
            s = &storages_.back();
        } else {
            s = &storages_[found->second];
            if (s->dtype != t.scalar_type())
                throw spl::SplError(what + " (" + spl::dtype_name(t.scalar_type()) + ") and tensor " +
                                    std::to_string(s->first) + " (" + spl::dtype_name(s->dtype) +
                                    ") view the same storage as different dtypes: torch.save refuses that too; "
                                    "clone() one of them");
        }
        // the persistent id
        w_.mark();
        w_.text("storage");
        if (row.storage)
            w_.global("torch", row.storage);
        else
            w_.global("torch.storage", "UntypedStorage");
        w_.text(s->key);
        w_.text(s->device.is_cpu() ? "cpu" : s->device.str());
        w_.integer(row.storage ? s->numel : s->numel * static_cast<int64_t>(c10::elementSize(s->dtype)));
        w_.op('t');
        w_.op('Q');
    }

    void inline_storage(const at::Tensor& t, const StorageRow& row, const std::string& what) {
        if (!row.storage)
            throw spl::SplError(what + ": a " + std::string(row.dtype) +
                                " tensor cannot travel inside a pickled object: PyTorch's own pickle of it does "
                                "not load (its storage has no legacy class); send it with the collectives");
        w_.global("torch.storage", "_load_from_bytes");
        w_.bytes(legacy_storage(t, row));
        w_.op('\x85');
        w_.op('R');
    }

    SplI64Array ops_;
    std::vector<std::string> texts_;
    SplF64Array floats_;
    SplI64Array tensors_;
    StorageForm form_;
    int64_t pos_ = 0;
    size_t text_pos_ = 0;
    int64_t float_pos_ = 0;
    int64_t tensor_pos_ = 0;
    PickleWriter w_;
    std::vector<SavedStorage> storages_;
    std::unordered_map<const c10::StorageImpl*, size_t> by_impl_;
};

} // namespace

PickledObject pickle_program(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors,
                             StorageForm form) {
    Saver saver(ops, std::move(texts), floats, tensors, form);
    std::string pickle = saver.pickle();
    return PickledObject{std::move(pickle), saver.storages()};
}

} // namespace spl::io::pt
