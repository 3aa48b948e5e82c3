// PyTorch's torch.save / torch.load files (the zip format PyTorch writes since
// 1.6), for lib.torch.save and lib.torch.load (spl_stubs/lib/torch/serialization.spl).
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
// Reading runs a small pickle machine over the opcodes torch.save's pickler
// emits (protocols 2 to 5) and accepts only these globals: collections.OrderedDict,
// torch._utils._rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3,
// _rebuild_parameter, _rebuild_parameter_with_state, torch.nn.parameter.Parameter,
// the storage classes, dtypes, torch.Size and torch.device. Any other global is
// refused by name (those weights_only allows but this reader has no value for,
// such as builtins.set, as "not supported"). An OrderedDict's state
// (state_dict()'s `_metadata`) is dropped.
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
#include "extras/io/zip_reader.h"

#include <ATen/ops/empty.h>
#include <caffe2/serialize/inline_container.h>

#include <zlib.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

namespace {

using spl::io::fail;

enum Op : int64_t { kNil = 0, kFalse, kTrue, kInt, kFloat, kText, kTensor, kList, kTuple, kDict };
constexpr int64_t kMaxDepth = 200; // containers nested deeper are refused, both ways
constexpr size_t kMaxOps = 50'000'000;

// --- dtypes and storage classes ------------------------------------------------

struct StorageRow {
    const char* storage; // torch.<storage>, nullptr: UntypedStorage + the dtype (v3)
    const char* dtype;   // PyTorch's name
};
constexpr StorageRow kStorages[] = {
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

const StorageRow* row_of(c10::ScalarType type) {
    const char* name = spl::dtype_name(type);
    for (const StorageRow& r : kStorages)
        if (std::strcmp(r.dtype, name) == 0) return &r;
    return nullptr;
}

// =============================================================================
// Writing
// =============================================================================

class PickleWriter {
public:
    std::string out;

    void proto() { out += "\x80\x02"; }
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

struct SavedStorage {
    std::string key;
    c10::Storage storage;
    c10::ScalarType dtype;
    c10::Device device;
    int64_t numel; // in elements of dtype
    int64_t first; // the first tensor (its index in `tensors`) that uses it
};

// Not every utf-8 check: Python decodes the pickle's texts as UTF-8 (with
// surrogatepass) and fails the whole load on one bad text.
bool valid_utf8(const std::string& s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > n) return false;
        for (size_t k = 1; k < len; ++k)
            if ((p[i + k] & 0xC0) != 0x80) return false;
        i += len;
    }
    return true;
}

class Saver {
public:
    Saver(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors)
        : ops_(ops), texts_(std::move(texts)), floats_(floats), tensors_(tensors) {}

    std::string pickle() {
        w_.proto();
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
                if (!valid_utf8(s)) throw spl::SplError("texts[" + std::to_string(text_pos_ - 1) + "] is not UTF-8");
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
        w_.global("torch._utils", row->storage ? "_rebuild_tensor_v2" : "_rebuild_tensor_v3");
        w_.mark();
        // the persistent id
        w_.mark();
        w_.text("storage");
        if (row->storage)
            w_.global("torch", row->storage);
        else
            w_.global("torch.storage", "UntypedStorage");
        w_.text(s->key);
        w_.text(s->device.is_cpu() ? "cpu" : s->device.str());
        w_.integer(row->storage ? s->numel : s->numel * static_cast<int64_t>(c10::elementSize(s->dtype)));
        w_.op('t');
        w_.op('Q');
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

    SplI64Array ops_;
    std::vector<std::string> texts_;
    SplF64Array floats_;
    SplI64Array tensors_;
    int64_t pos_ = 0;
    size_t text_pos_ = 0;
    int64_t float_pos_ = 0;
    int64_t tensor_pos_ = 0;
    PickleWriter w_;
    std::vector<SavedStorage> storages_;
    std::unordered_map<const c10::StorageImpl*, size_t> by_impl_;
};

// The writer's serialization id, which LibTorch 2.x writes itself in
// writeEndOfFile and 1.x does not know.
template <class W, class = void>
struct WritesSerializationId : std::false_type {};
template <class W>
struct WritesSerializationId<W, std::void_t<decltype(std::declval<W&>().serializationId())>> : std::true_type {};

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

// =============================================================================
// Reading
// =============================================================================

enum class Kind { None, Bool, Int, Float, Text, List, Tuple, Dict, Tensor, Global, Storage };

struct PyObj;
using Obj = std::shared_ptr<PyObj>;

struct PyObj {
    Kind kind;
    bool b = false;
    int64_t i = 0;
    double f = 0;
    std::string s;          // a text; a global's "module.name"; a storage's key
    std::vector<Obj> items; // a list, a tuple; a dict's key, value, key, value, ...
    at::Tensor tensor;
    // a storage reference (persistent id)
    std::optional<c10::ScalarType> dtype; // nullopt: UntypedStorage (bytes)
    int64_t numel = 0;
    explicit PyObj(Kind k) : kind(k) {}
};

Obj make(Kind k) { return std::make_shared<PyObj>(k); }

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::None: return "None";
    case Kind::Bool: return "a bool";
    case Kind::Int: return "an int";
    case Kind::Float: return "a float";
    case Kind::Text: return "a str";
    case Kind::List: return "a list";
    case Kind::Tuple: return "a tuple";
    case Kind::Dict: return "a dict";
    case Kind::Tensor: return "a tensor";
    case Kind::Global: return "a global";
    case Kind::Storage: return "a storage";
    }
    return "?";
}

// Globals torch.load(weights_only=True) allows that this reader gives no value.
bool weights_only_allows(const std::string& name) {
    static const char* const kAllowed[] = {
        "collections.Counter",
        "torch.Tensor",
        "torch.serialization._get_layout",
        "_codecs.encode",
        "builtins.bytearray",
        "builtins.set",
        "builtins.complex",
        "torch._utils._rebuild_qtensor",
        "torch._utils._rebuild_sparse_tensor",
        "torch._utils._rebuild_meta_tensor_no_storage",
        "torch._utils._rebuild_wrapper_subclass",
        "torch._utils._rebuild_device_tensor_from_numpy",
        "torch._utils._rebuild_device_tensor_from_cpu_tensor",
        "torch._tensor._rebuild_from_type_v2",
    };
    for (const char* a : kAllowed)
        if (name == a) return true;
    // dtypes, layouts, quantization schemes, tensor classes: torch.<something>
    return false;
}

// What a recognised global is.
enum class Global {
    OrderedDict,
    TensorV1,
    TensorV2,
    TensorV3,
    Parameter,
    ParameterWithState,
    ParameterClass,
    Size,
    Device,
    StorageClass,
    Dtype
};

class Unpickler {
public:
    Unpickler(const std::string& data, const std::string& path,
              std::function<at::Tensor(const PyObj& storage, c10::ScalarType dtype)> storage)
        : p_(reinterpret_cast<const unsigned char*>(data.data())), n_(data.size()), path_(path),
          storage_(std::move(storage)) {}
    // Containers are emptied one by one, not destroyed recursively: a hostile
    // pickle may nest lists a million deep, or make one hold itself.
    ~Unpickler() {
        for (const Obj& o : containers_) o->items.clear();
    }
    Unpickler(const Unpickler&) = delete;
    Unpickler& operator=(const Unpickler&) = delete;

    Obj run() {
        while (true) {
            const size_t at = pos_;
            const unsigned char code = byte();
            switch (code) {
            case 0x80: { // PROTO
                const unsigned v = byte();
                if (v < 2 || v > 5) bad("pickle protocol " + std::to_string(v) + " (torch.save writes 2)", at);
                break;
            }
            case 0x95: take(8); break; // FRAME: a length, nothing to do
            case '.': {                // STOP
                if (stack_.size() != 1 || !marks_.empty())
                    bad("STOP with " + std::to_string(stack_.size()) + " values on the stack", at);
                return stack_.back();
            }
            case '(': marks_.push_back(stack_.size()); break;
            case '}': push(container(Kind::Dict)); break;
            case ']': push(container(Kind::List)); break;
            case ')': push(container(Kind::Tuple)); break;
            case 'd':
            case 'l':
            case 't': {
                Obj o = container(code == 'd' ? Kind::Dict : code == 'l' ? Kind::List : Kind::Tuple);
                o->items = pop_mark(at);
                if (code == 'd' && o->items.size() % 2) bad("DICT with an odd number of items", at);
                push(o);
                break;
            }
            case 0x85:
            case 0x86:
            case 0x87: {
                const size_t n = code - 0x84u;
                need(n, at);
                Obj o = container(Kind::Tuple);
                o->items.assign(stack_.end() - static_cast<long>(n), stack_.end());
                stack_.resize(stack_.size() - n);
                push(o);
                break;
            }
            case 'a': { // APPEND
                need(2, at);
                Obj v = pop();
                Obj list = top(at);
                if (list->kind != Kind::List) bad("APPEND to " + std::string(kind_name(list->kind)), at);
                list->items.push_back(v);
                break;
            }
            case 'e': { // APPENDS
                auto items = pop_mark(at);
                Obj list = top(at);
                if (list->kind != Kind::List) bad("APPENDS to " + std::string(kind_name(list->kind)), at);
                list->items.insert(list->items.end(), items.begin(), items.end());
                break;
            }
            case 's': { // SETITEM
                need(3, at);
                Obj v = pop();
                Obj k = pop();
                set_items(top(at), {k, v}, at);
                break;
            }
            case 'u': { // SETITEMS
                auto items = pop_mark(at);
                if (items.size() % 2) bad("SETITEMS with an odd number of items", at);
                set_items(top(at), items, at);
                break;
            }
            case 'N': push(make(Kind::None)); break;
            case 0x88:
            case 0x89: {
                Obj o = make(Kind::Bool);
                o->b = code == 0x88;
                push(o);
                break;
            }
            case 'K': push(integer(byte())); break;
            case 'M': push(integer(static_cast<int64_t>(le(2)))); break;
            case 'J': push(integer(static_cast<int32_t>(static_cast<uint32_t>(le(4))))); break;
            case 0x8a:   // LONG1
            case 0x8b: { // LONG4
                const uint64_t n = code == 0x8a ? byte() : le(4);
                if (n > 8) bad("an integer of " + std::to_string(n) + " bytes (more than int64 holds)", at);
                const unsigned char* b = take(static_cast<size_t>(n));
                uint64_t v = 0;
                for (uint64_t k = 0; k < n; ++k) v |= static_cast<uint64_t>(b[k]) << (8 * k);
                if (n > 0 && n < 8 && (b[n - 1] & 0x80)) v |= ~uint64_t{0} << (8 * n); // sign-extend
                push(integer(static_cast<int64_t>(v)));
                break;
            }
            case 'G': {
                const unsigned char* b = take(8);
                uint64_t bits = 0;
                for (int k = 0; k < 8; ++k) bits = (bits << 8) | b[k];
                Obj o = make(Kind::Float);
                std::memcpy(&o->f, &bits, 8);
                push(o);
                break;
            }
            case 'X':    // BINUNICODE
            case 0x8c:   // SHORT_BINUNICODE
            case 0x8d: { // BINUNICODE8
                const uint64_t n = code == 'X' ? le(4) : code == 0x8c ? byte() : le(8);
                if (n > n_ - pos_) bad("a str of " + std::to_string(n) + " bytes runs past the pickle's end", at);
                Obj o = make(Kind::Text);
                o->s.assign(reinterpret_cast<const char*>(take(static_cast<size_t>(n))), static_cast<size_t>(n));
                push(o);
                break;
            }
            case 'c': { // GLOBAL
                const std::string module = line(at);
                const std::string name = line(at);
                push(global(module + "." + name, at));
                break;
            }
            case 0x93: { // STACK_GLOBAL
                need(2, at);
                Obj name = pop();
                Obj module = pop();
                if (module->kind != Kind::Text || name->kind != Kind::Text) bad("STACK_GLOBAL without two strs", at);
                push(global(module->s + "." + name->s, at));
                break;
            }
            case 'R':    // REDUCE
            case 0x81: { // NEWOBJ
                need(2, at);
                Obj args = pop();
                Obj fn = pop();
                if (args->kind != Kind::Tuple) bad("REDUCE with arguments that are not a tuple", at);
                push(call(*fn, args->items, at));
                break;
            }
            case 'b': { // BUILD: an OrderedDict's or a parameter's state, dropped
                need(2, at);
                pop();
                Obj o = top(at);
                if (o->kind != Kind::Dict && o->kind != Kind::Tensor)
                    bad("BUILD (setting the state) of " + std::string(kind_name(o->kind)), at);
                break;
            }
            case 'Q': { // BINPERSID
                need(1, at);
                push(persistent(*pop(), at));
                break;
            }
            case 'q': memo_[byte()] = top(at); break;
            case 'r': memo_[le(4)] = top(at); break;
            case 0x94: memo_[memo_.size()] = top(at); break; // MEMOIZE
            case 'h':
            case 'j': {
                const uint64_t key = code == 'h' ? byte() : le(4);
                const auto found = memo_.find(key);
                if (found == memo_.end()) bad("a memo entry that was never stored (" + std::to_string(key) + ")", at);
                push(found->second);
                break;
            }
            case '0': need(1, at), pop(); break;
            case '1': pop_mark(at); break;
            case '2': push(top(at)); break;
            default: {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", code);
                bad(std::string("the pickle opcode ") + hex + " ('" +
                        (code >= 0x20 && code < 0x7f ? std::string(1, static_cast<char>(code)) : "?") +
                        "'), which torch.save does not write",
                    at);
            }
            }
        }
    }

private:
    [[noreturn]] void bad(const std::string& what, size_t at) const {
        fail(path_, "data.pkl: " + what + " (at byte " + std::to_string(at) + ")");
    }
    unsigned char byte() { return *take(1); }
    const unsigned char* take(size_t n) {
        if (n > n_ - pos_) fail(path_, "data.pkl is truncated: it ends before its STOP opcode");
        const unsigned char* b = p_ + pos_;
        pos_ += n;
        return b;
    }
    uint64_t le(int n) {
        const unsigned char* b = take(static_cast<size_t>(n));
        uint64_t v = 0;
        for (int k = 0; k < n; ++k) v |= static_cast<uint64_t>(b[k]) << (8 * k);
        return v;
    }
    std::string line(size_t at) {
        std::string s;
        while (true) {
            const char c = static_cast<char>(byte());
            if (c == '\n') return s;
            s += c;
            if (s.size() > 256) bad("a GLOBAL name longer than 256 characters", at);
        }
    }
    void push(Obj o) { stack_.push_back(std::move(o)); }
    Obj pop() {
        Obj o = std::move(stack_.back());
        stack_.pop_back();
        return o;
    }
    Obj top(size_t at) const {
        if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) bad("an empty stack", at);
        return stack_.back();
    }
    void need(size_t n, size_t at) const {
        const size_t floor = marks_.empty() ? 0 : marks_.back();
        if (stack_.size() < floor + n) bad("an opcode needs " + std::to_string(n) + " values on the stack", at);
    }
    std::vector<Obj> pop_mark(size_t at) {
        if (marks_.empty()) bad("an opcode needs a MARK, and there is none", at);
        const size_t m = marks_.back();
        marks_.pop_back();
        std::vector<Obj> items(stack_.begin() + static_cast<long>(m), stack_.end());
        stack_.resize(m);
        return items;
    }
    Obj container(Kind k) {
        Obj o = make(k);
        containers_.push_back(o);
        return o;
    }
    Obj integer(int64_t v) {
        Obj o = make(Kind::Int);
        o->i = v;
        return o;
    }
    void set_items(const Obj& dict, const std::vector<Obj>& items, size_t at) {
        if (dict->kind != Kind::Dict) bad("SETITEM(S) on " + std::string(kind_name(dict->kind)), at);
        for (size_t k = 0; k < items.size(); k += 2) {
            const Obj& key = items[k];
            if (key->kind != Kind::Text && key->kind != Kind::Int && key->kind != Kind::Bool &&
                key->kind != Kind::None && key->kind != Kind::Float)
                bad(std::string("a dict key that is ") + kind_name(key->kind) +
                        " (lib.torch.load takes str and int keys)",
                    at);
            // A key given again replaces the value, as in Python.
            bool replaced = false;
            for (size_t j = 0; j < dict->items.size() && !replaced; j += 2)
                if (same_key(*dict->items[j], *key)) {
                    dict->items[j + 1] = items[k + 1];
                    replaced = true;
                }
            if (!replaced) {
                dict->items.push_back(key);
                dict->items.push_back(items[k + 1]);
            }
        }
    }
    static bool same_key(const PyObj& a, const PyObj& b) {
        if (a.kind != b.kind) return false;
        switch (a.kind) {
        case Kind::Text: return a.s == b.s;
        case Kind::Int: return a.i == b.i;
        case Kind::Bool: return a.b == b.b;
        case Kind::None: return true;
        case Kind::Float: return a.f == b.f;
        default: return false;
        }
    }

    Obj global(std::string name, size_t at) {
        // Protocol 2 writes Python 2's module names, which Python 3 maps back (fix_imports).
        if (name.rfind("__builtin__.", 0) == 0) name = "builtins." + name.substr(12);
        static const std::map<std::string, Global> kKnown = {
            {"collections.OrderedDict", Global::OrderedDict},
            {"torch._utils._rebuild_tensor", Global::TensorV1},
            {"torch._utils._rebuild_tensor_v2", Global::TensorV2},
            {"torch._utils._rebuild_tensor_v3", Global::TensorV3},
            {"torch._utils._rebuild_parameter", Global::Parameter},
            {"torch._utils._rebuild_parameter_with_state", Global::ParameterWithState},
            {"torch.nn.parameter.Parameter", Global::ParameterClass},
            {"torch.Size", Global::Size},
            {"torch.device", Global::Device},
            {"torch.storage.UntypedStorage", Global::StorageClass},
        };
        Obj o = make(Kind::Global);
        o->s = name;
        if (kKnown.count(name)) {
            o->i = static_cast<int64_t>(kKnown.at(name));
            return o;
        }
        if (name.rfind("torch.", 0) == 0) {
            const std::string short_name = name.substr(6);
            for (const StorageRow& r : kStorages) {
                if (r.storage && short_name == r.storage) {
                    o->i = static_cast<int64_t>(Global::StorageClass);
                    o->dtype = spl::io::dtype_named(r.dtype);
                    return o;
                }
                if (short_name == r.dtype) {
                    const auto type = spl::io::dtype_named(r.dtype);
                    if (!type)
                        bad("the dtype " + name + " is not supported by this LibTorch (" + SPL_TORCH_LIBTORCH_VERSION +
                                ")",
                            at);
                    o->i = static_cast<int64_t>(Global::Dtype);
                    o->dtype = type;
                    return o;
                }
            }
        }
        if (weights_only_allows(name) || name.rfind("torch.", 0) == 0)
            bad("the global " + name + " is not supported by lib.torch.load", at);
        bad("the global " + name + " is not allowed: torch.load(weights_only=True) refuses it too", at);
    }

    static int64_t as_int(const Obj& o, const std::string& what, const Unpickler& u, size_t at) {
        if (o->kind != Kind::Int) u.bad(what + " is " + kind_name(o->kind) + ", not an int", at);
        return o->i;
    }
    std::vector<int64_t> int_tuple(const Obj& o, const std::string& what, size_t at) const {
        if (o->kind != Kind::Tuple && o->kind != Kind::List)
            bad(what + " is " + kind_name(o->kind) + ", not a tuple", at);
        std::vector<int64_t> out;
        for (const Obj& x : o->items) out.push_back(as_int(x, what + " item", *this, at));
        return out;
    }

    Obj call(const PyObj& fn, const std::vector<Obj>& args, size_t at) {
        if (fn.kind != Kind::Global) bad(std::string("a call of ") + kind_name(fn.kind), at);
        const auto g = static_cast<Global>(fn.i);
        const auto arity = [&](size_t lo, size_t hi) {
            if (args.size() < lo || args.size() > hi)
                bad(fn.s + " called with " + std::to_string(args.size()) + " arguments", at);
        };
        switch (g) {
        case Global::OrderedDict: {
            arity(0, 0);
            return container(Kind::Dict);
        }
        case Global::TensorV1:
        case Global::TensorV2:
        case Global::TensorV3: {
            if (g == Global::TensorV1) arity(4, 4);
            if (g == Global::TensorV2) arity(6, 7);
            if (g == Global::TensorV3) arity(7, 8);
            const PyObj& storage = *args[0];
            if (storage.kind != Kind::Storage) bad(fn.s + "'s first argument is not a storage", at);
            std::optional<c10::ScalarType> dtype = storage.dtype;
            if (g == Global::TensorV3) {
                if (args[6]->kind != Kind::Global || static_cast<Global>(args[6]->i) != Global::Dtype)
                    bad(fn.s + "'s dtype argument is not a dtype", at);
                dtype = args[6]->dtype;
            }
            if (!dtype) bad(fn.s + " of an untyped storage without a dtype", at);
            const int64_t offset = as_int(args[1], "the storage offset", *this, at);
            const auto size = int_tuple(args[2], "the size", at);
            const auto stride = int_tuple(args[3], "the stride", at);
            bool requires_grad = false;
            if (g != Global::TensorV1) {
                if (args[4]->kind != Kind::Bool) bad("requires_grad is not a bool", at);
                requires_grad = args[4]->b;
            }
            Obj o = make(Kind::Tensor);
            o->tensor = view(storage, *dtype, offset, size, stride, at);
            if (requires_grad && (at::isFloatingType(*dtype) || at::isComplexType(*dtype)))
                o->tensor.requires_grad_(true);
            return o;
        }
        case Global::Parameter:
        case Global::ParameterWithState:
        case Global::ParameterClass: {
            if (g == Global::Parameter) arity(3, 3);
            if (g == Global::ParameterWithState) arity(4, 4);
            if (g == Global::ParameterClass) arity(1, 2);
            if (args[0]->kind != Kind::Tensor) bad(fn.s + "'s data is not a tensor", at);
            bool requires_grad = true;
            if (args.size() > 1) {
                if (args[1]->kind != Kind::Bool) bad("requires_grad is not a bool", at);
                requires_grad = args[1]->b;
            }
            Obj o = make(Kind::Tensor);
            o->tensor = args[0]->tensor.detach();
            if (requires_grad && o->tensor.is_floating_point()) o->tensor.requires_grad_(true);
            return o;
        }
        case Global::Size: {
            arity(0, 1);
            Obj o = container(Kind::Tuple);
            if (!args.empty()) {
                int_tuple(args[0], "torch.Size's argument", at);
                o->items = args[0]->items;
            }
            return o;
        }
        case Global::Device: {
            arity(1, 2);
            if (args[0]->kind != Kind::Text) bad("torch.device's argument is not a str", at);
            Obj o = make(Kind::Text);
            o->s = args[0]->s;
            if (args.size() == 2 && args[1]->kind == Kind::Int) o->s += ":" + std::to_string(args[1]->i);
            return o;
        }
        case Global::StorageClass:
        case Global::Dtype: bad("a call of " + fn.s, at);
        }
        bad("a call of " + fn.s, at);
    }

    Obj persistent(const PyObj& pid, size_t at) {
        if (pid.kind != Kind::Tuple || pid.items.size() != 5 || pid.items[0]->kind != Kind::Text ||
            pid.items[0]->s != "storage")
            bad("a persistent id that is not ('storage', type, key, location, numel)", at);
        const PyObj& type = *pid.items[1];
        if (type.kind != Kind::Global || static_cast<Global>(type.i) != Global::StorageClass)
            bad("a persistent id whose storage type is not a storage class", at);
        if (pid.items[2]->kind != Kind::Text) bad("a storage key that is not a str", at);
        if (pid.items[3]->kind != Kind::Text) bad("a storage location that is not a str", at);
        Obj o = make(Kind::Storage);
        o->s = pid.items[2]->s;
        o->dtype = type.dtype;
        o->numel = as_int(pid.items[4], "a storage's numel", *this, at);
        if (o->numel < 0) bad("a storage of negative numel", at);
        return o;
    }

    at::Tensor view(const PyObj& storage, c10::ScalarType dtype, int64_t offset, const std::vector<int64_t>& size,
                    const std::vector<int64_t>& stride, size_t at) {
        if (size.size() != stride.size())
            bad("a tensor with " + std::to_string(size.size()) + " sizes and " + std::to_string(stride.size()) +
                    " strides",
                at);
        const at::Tensor base = storage_(storage, dtype); // 1-d, the whole storage
        const int64_t numel = base.numel();
        if (offset < 0) bad("a negative storage offset", at);
        int64_t last = offset, elements = 1;
        for (size_t d = 0; d < size.size(); ++d) {
            if (size[d] < 0 || stride[d] < 0) bad("a negative size or stride", at);
            if (__builtin_mul_overflow(elements, size[d], &elements)) bad("a size that overflows", at);
        }
        if (elements > 0) {
            for (size_t d = 0; d < size.size(); ++d) {
                int64_t step = 0;
                if (__builtin_mul_overflow(size[d] - 1, stride[d], &step) || __builtin_add_overflow(last, step, &last))
                    bad("a size and stride that overflow", at);
            }
            if (last >= numel)
                bad("a tensor of size " + spl::io::shape_text(size) + ", stride " + spl::io::shape_text(stride) +
                        " at offset " + std::to_string(offset) + " reaches past its storage '" + storage.s + "' (" +
                        std::to_string(numel) + " elements)",
                    at);
        }
        at::Tensor t = at::empty({0}, base.options());
        t.set_(base.storage(), offset, size, stride);
        return t;
    }

    const unsigned char* p_;
    size_t n_;
    size_t pos_ = 0;
    const std::string& path_;
    std::function<at::Tensor(const PyObj&, c10::ScalarType)> storage_;
    std::vector<Obj> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, Obj> memo_;
    std::vector<Obj> containers_;
};

// The object as the flat program (see the top of this file).
struct Program {
    std::vector<int64_t> ops;
    std::vector<std::string> texts;
    std::vector<double> floats;
    std::vector<at::Tensor> tensors;
};

Program flatten(const Obj& root, const std::string& path) {
    Program p;
    struct Frame {
        const PyObj* obj;
        size_t next;
    };
    std::vector<Frame> stack;
    const auto emit = [&](const PyObj& o) {
        if (p.ops.size() > kMaxOps)
            fail(path, "the object is too large to load (over " + std::to_string(kMaxOps) +
                           " values, or one that refers to itself)");
        switch (o.kind) {
        case Kind::None: p.ops.push_back(kNil); return;
        case Kind::Bool: p.ops.push_back(o.b ? kTrue : kFalse); return;
        case Kind::Int: p.ops.insert(p.ops.end(), {kInt, o.i}); return;
        case Kind::Float:
            p.ops.push_back(kFloat);
            p.floats.push_back(o.f);
            return;
        case Kind::Text:
            p.ops.push_back(kText);
            p.texts.push_back(o.s);
            return;
        case Kind::Tensor:
            p.ops.push_back(kTensor);
            p.tensors.push_back(o.tensor);
            return;
        case Kind::List:
        case Kind::Tuple:
        case Kind::Dict:
            p.ops.insert(p.ops.end(),
                         {o.kind == Kind::List    ? kList
                          : o.kind == Kind::Tuple ? kTuple
                                                  : kDict,
                          static_cast<int64_t>(o.kind == Kind::Dict ? o.items.size() / 2 : o.items.size())});
            if (static_cast<int64_t>(stack.size()) >= kMaxDepth)
                fail(path, "the object nests containers more than " + std::to_string(kMaxDepth) +
                               " deep (or refers to itself)");
            stack.push_back({&o, 0});
            return;
        case Kind::Global: fail(path, "data.pkl holds the global " + o.s + " as a value: not supported");
        case Kind::Storage: fail(path, "data.pkl holds a bare storage (not in a tensor): not supported");
        }
    };
    emit(*root);
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next == f.obj->items.size()) {
            stack.pop_back();
            continue;
        }
        const PyObj& item = *f.obj->items[f.next++];
        emit(item);
    }
    return p;
}

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
    const auto storage = [&](const PyObj& s, c10::ScalarType dtype) -> at::Tensor {
        const auto it = storages.find(s.s);
        if (it != storages.end()) {
            if (it->second.base.scalar_type() != dtype)
                fail(path, "storage '" + s.s + "' is used as " + spl::dtype_name(it->second.base.scalar_type()) +
                               " and as " + spl::dtype_name(dtype));
            return it->second.base;
        }
        const std::string name = "data/" + s.s;
        const auto m = by_name.find(prefix + name);
        if (m == by_name.end()) fail(path, "storage '" + s.s + "' has no record " + prefix + name);
        const int64_t elem = static_cast<int64_t>(c10::elementSize(dtype));
        // A typed storage counts elements; an untyped one (v3) bytes.
        uint64_t nbytes = 0;
        if (s.dtype ? __builtin_mul_overflow(static_cast<uint64_t>(s.numel), static_cast<uint64_t>(elem), &nbytes)
                    : (nbytes = static_cast<uint64_t>(s.numel), false))
            fail(path, "storage '" + s.s + "': its size overflows");
        if (m->second->size != nbytes)
            fail(path, "storage '" + s.s + "' should hold " + std::to_string(nbytes) + " bytes, its record " + name +
                           " holds " + std::to_string(m->second->size));
        if (nbytes % static_cast<uint64_t>(elem) != 0)
            fail(path, "storage '" + s.s + "' holds " + std::to_string(nbytes) + " bytes, not a whole number of " +
                           spl::dtype_name(dtype));
        const std::string data = zip.data(*m->second);
        const bool is_bool = dtype == c10::kBool;
        at::Tensor base =
            at::empty({static_cast<int64_t>(nbytes) / elem}, at::TensorOptions().dtype(is_bool ? c10::kByte : dtype));
        if (nbytes > 0) std::memcpy(base.data_ptr(), data.data(), nbytes);
        if (big_endian) spl::io::swap_bytes(base.data_ptr(), nbytes, at::isComplexType(dtype) ? elem / 2 : elem);
        if (is_bool) {
            // A byte that is neither 0 nor 1 is no valid bool: read as (byte != 0).
            base = base.ne(0);
        }
        if (!device.is_cpu()) base = base.to(device);
        storages[s.s] = Loaded{base};
        return base;
    };
    Unpickler unpickler(pickle, path, storage);
    const Obj root = unpickler.run();
    return flatten(root, path);
}

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
        Saver saver(ops, spl::io::text_list(texts, "texts"), floats, tensors);
        const std::string pickle = saver.pickle();
        std::string zip;
        try {
            zip = zip_bytes(pickle, saver.storages());
        } catch (const c10::Error& e) {
            fail(file, std::string("cannot write the archive: ") + e.what_without_backtrace());
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
            p = load_file(file, *device);
        } catch (const c10::Error& e) {
            fail(file, e.what_without_backtrace());
        }
        return program_value(std::move(p));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_pt_save, "path", "ops", "texts", "floats", "tensors")
SPL_EXTRA_RETURNS(rt_torch_pt_load, "([i64], [text], [f64], [i64])", "path", "map_location")
