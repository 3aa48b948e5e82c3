// PyTorch's .pt format, reading the pickle (pt_format.h): data.pkl, which
// pt_archive.cpp finds in the archive, to the object as the flat program that
// rt_torch_pt_load returns (pt.cpp).
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
// A pickle.dumps pickle (unpickle_inline; torch.distributed's objects) is read by the
// same machine, with no archive: torch.storage._load_from_bytes is then allowed, and
// its bytes, torch.save's legacy format of one storage (pt_pickle_writer.cpp
// describes it), are read by running the same machine on each of its pickles.
#include "extras/io/pt_format.h"

#include <ATen/ops/empty.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace spl::io::pt {

namespace {

enum class Kind { None, Bool, Int, Float, Text, Bytes, List, Tuple, Dict, Tensor, Global, Storage };

struct PyObj;
using Obj = std::shared_ptr<PyObj>;

struct PyObj {
    Kind kind;
    bool b = false;
    int64_t i = 0;
    double f = 0;
    std::string s;          // a text; bytes; a global's "module.name"; a storage's key
    std::vector<Obj> items; // a list, a tuple; a dict's key, value, key, value, ...
    at::Tensor tensor;      // a tensor; a storage read from bytes, whole and 1-d
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
    case Kind::Bytes: return "bytes";
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
    Dtype,
    StorageFromBytes
};

class Unpickler {
public:
    // `storage` loads the archive's storages (StorageForm::Archive); without one, the
    // pickle is pickle.dumps' (StorageForm::Inline).
    Unpickler(std::string_view data, const std::string& path, StorageLoader storage)
        : p_(reinterpret_cast<const unsigned char*>(data.data())), n_(data.size()), path_(path),
          storage_(std::move(storage)), form_(storage_ ? StorageForm::Archive : StorageForm::Inline) {}
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
            case 'B':    // BINBYTES
            case 'C':    // SHORT_BINBYTES
            case 0x8e: { // BINBYTES8
                const uint64_t n = code == 'B' ? le(4) : code == 'C' ? byte() : le(8);
                if (n > n_ - pos_) bad("bytes of " + std::to_string(n) + " run past the pickle's end", at);
                Obj o = make(Kind::Bytes);
                o->s.assign(reinterpret_cast<const char*>(take(static_cast<size_t>(n))), static_cast<size_t>(n));
                push(o);
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

    // The bytes read so far (after run(): the pickle's length, up to its STOP).
    size_t consumed() const { return pos_; }

private:
    [[noreturn]] void bad(const std::string& what, size_t at) const {
        fail(path_,
             (form_ == StorageForm::Archive ? "data.pkl: " : "") + what + " (at byte " + std::to_string(at) + ")");
    }
    unsigned char byte() { return *take(1); }
    const unsigned char* take(size_t n) {
        if (n > n_ - pos_)
            fail(path_, std::string(form_ == StorageForm::Archive ? "data.pkl" : "the pickle") +
                            " is truncated: it ends before its STOP opcode");
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
            {"torch.storage._load_from_bytes", Global::StorageFromBytes},
        };
        Obj o = make(Kind::Global);
        o->s = name;
        const auto known = kKnown.find(name);
        // torch.save never writes _load_from_bytes (weights_only refuses it); pickle.dumps does.
        if (known != kKnown.end() && (known->second != Global::StorageFromBytes || form_ == StorageForm::Inline)) {
            o->i = static_cast<int64_t>(known->second);
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
        case Global::StorageFromBytes: {
            arity(1, 1);
            if (args[0]->kind != Kind::Bytes)
                bad(fn.s + "'s argument is " + kind_name(args[0]->kind) + ", not bytes", at);
            return legacy_storage(args[0]->s, at);
        }
        case Global::StorageClass:
        case Global::Dtype: bad("a call of " + fn.s, at);
        }
        bad("a call of " + fn.s, at);
    }

    Obj persistent(const PyObj& pid, size_t at) {
        if (form_ == StorageForm::Inline)
            bad("A load persistent id instruction was encountered, but no persistent_load function was specified.", at);
        // The legacy format adds a sixth item, a view's metadata, which torch.save no longer writes.
        const bool legacy = pid.kind == Kind::Tuple && pid.items.size() == 6 && pid.items[5]->kind == Kind::None;
        if (pid.kind != Kind::Tuple || (pid.items.size() != 5 && !legacy) || pid.items[0]->kind != Kind::Text ||
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
        // 1-d, the whole storage
        const at::Tensor base = storage.tensor.defined()
                                    ? storage.tensor
                                    : storage_(StorageRef{storage.s, storage.dtype, storage.numel}, dtype);
        if (base.scalar_type() != dtype)
            bad("a " + std::string(spl::dtype_name(dtype)) + " tensor of a " + spl::dtype_name(base.scalar_type()) +
                    " storage",
                at);
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

    // torch.save's legacy format of one storage (the bytes of _load_from_bytes): its
    // pickles, each run by a machine of its own, then its elements.
    Obj legacy_storage(const std::string& bytes, size_t at) {
        static const char kMagic[] = "\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.";
        const size_t magic = sizeof kMagic - 1;
        if (bytes.compare(0, magic, kMagic, magic) != 0)
            bad("_load_from_bytes of bytes that are not torch.save's legacy format (no magic number)", at);
        size_t offset = magic;
        std::vector<std::unique_ptr<Unpickler>> machines; // their containers live until read
        const auto next = [&](StorageLoader loader) {
            machines.push_back(
                std::make_unique<Unpickler>(std::string_view(bytes).substr(offset), path_, std::move(loader)));
            const Obj o = machines.back()->run();
            offset += machines.back()->consumed();
            return o;
        };
        // Each piece runs as an archive's pickle: a persistent id is read, never loaded, and
        // _load_from_bytes is refused there, so a storage cannot nest another.
        const StorageLoader archive = [&](const StorageRef&, c10::ScalarType) -> at::Tensor {
            bad("_load_from_bytes: a tensor inside the legacy format's pickles", at);
        };
        const Obj version = next(archive);
        if (version->kind != Kind::Int || version->i != 1001)
            bad("_load_from_bytes: the legacy format's version is not 1001", at);
        const Obj sys_info = next(archive);
        bool little_endian = false;
        for (size_t k = 0; sys_info->kind == Kind::Dict && k + 1 < sys_info->items.size(); k += 2)
            if (sys_info->items[k]->kind == Kind::Text && sys_info->items[k]->s == "little_endian")
                little_endian = sys_info->items[k + 1]->kind == Kind::Bool && sys_info->items[k + 1]->b;
        if (!little_endian) bad("_load_from_bytes: a storage saved on a big-endian machine: not supported", at);
        Obj storage = next(archive);
        if (storage->kind != Kind::Storage || !storage->dtype)
            bad("_load_from_bytes: the legacy format holds " + std::string(kind_name(storage->kind)) +
                    ", not a typed storage",
                at);
        const Obj keys = next(archive);
        if (keys->kind != Kind::List || keys->items.size() != 1 || keys->items[0]->kind != Kind::Text ||
            keys->items[0]->s != storage->s)
            bad("_load_from_bytes: the legacy format's storage keys are not the storage's", at);
        if (bytes.size() - offset < 8) bad("_load_from_bytes: the legacy format ends before its storage", at);
        int64_t numel = 0;
        std::memcpy(&numel, bytes.data() + offset, 8);
        offset += 8;
        const auto elem = static_cast<uint64_t>(c10::elementSize(*storage->dtype));
        uint64_t nbytes = 0;
        if (numel != storage->numel || __builtin_mul_overflow(static_cast<uint64_t>(numel), elem, &nbytes) ||
            nbytes > bytes.size() - offset)
            bad("_load_from_bytes: the storage's " + std::to_string(numel) + " elements do not fit its bytes", at);
        storage->tensor = storage_from_bytes(bytes.data() + offset, static_cast<size_t>(nbytes), *storage->dtype);
        return storage;
    }

    const unsigned char* p_;
    size_t n_;
    size_t pos_ = 0;
    const std::string& path_;
    StorageLoader storage_;
    StorageForm form_;
    std::vector<Obj> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, Obj> memo_;
    std::vector<Obj> containers_;
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
        case Kind::Bytes: fail(path, "the object holds bytes: not supported");
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

} // namespace

Program unpickle(const std::string& pickle, const std::string& path, StorageLoader storage) {
    Unpickler unpickler(pickle, path, std::move(storage));
    const Obj root = unpickler.run();
    return flatten(root, path);
}

Program unpickle_inline(const std::string& pickle, const std::string& what) {
    Unpickler unpickler(pickle, what, nullptr);
    const Obj root = unpickler.run();
    return flatten(root, what);
}

} // namespace spl::io::pt
