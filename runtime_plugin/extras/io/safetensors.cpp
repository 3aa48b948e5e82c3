// safetensors files (https://github.com/huggingface/safetensors): an 8-byte
// little-endian header length N, N bytes of JSON
//     {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
//      "__metadata__": {"key": "value"}}
// then the tensors' raw little-endian, row-major bytes; offsets count from the
// end of the header.
//
// Saving writes the tensors in the order given, back to back, and pads the
// header with spaces to a multiple of 8 bytes, as the reference writer does.
// Non-contiguous tensors are written as their contiguous copy and tensors on
// another device are copied to the CPU (io_support.h, dense_cpu). Loading
// returns the tensors in the file's order (by data offset) as new CPU tensors.
//
// A header may hold a hundred thousand entries: it is parsed into nlohmann::json,
// whose objects are maps, and the keys' order in the file is noted by a second, SAX
// pass (ordered_json's objects are vectors searched on every insert, which made a
// load quadratic in the entries); a saved header is written as text one entry at a time.
#include "extras/io/io_support.h"

#include <ATen/ops/empty.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace {

using spl::io::fail;
using json = nlohmann::json;
// Only for an entry's three fields when saving, written in safetensors' own order.
using ordered_json = nlohmann::ordered_json;

// safetensors' dtype names with PyTorch's (those this LibTorch lacks are
// refused by name), as safetensors.torch maps them.
struct DtypeRow {
    const char* safetensors;
    const char* torch;
};
constexpr DtypeRow kDtypes[] = {
    {"BOOL", "bool"},
    {"U8", "uint8"},
    {"I8", "int8"},
    {"I16", "int16"},
    {"U16", "uint16"},
    {"I32", "int32"},
    {"U32", "uint32"},
    {"I64", "int64"},
    {"U64", "uint64"},
    {"F16", "float16"},
    {"BF16", "bfloat16"},
    {"F32", "float32"},
    {"F64", "float64"},
    {"C64", "complex64"},
    {"F8_E4M3", "float8_e4m3fn"},
    {"F8_E5M2", "float8_e5m2"},
    {"F8_E4M3FNUZ", "float8_e4m3fnuz"},
    {"F8_E5M2FNUZ", "float8_e5m2fnuz"},
    {"F8_E8M0", "float8_e8m0fnu"},
};

// A header longer than this is not believed (the reference reader's limit).
constexpr uint64_t kMaxHeader = 100'000'000;

// A JSON value for a message: small values as JSON, others by their type
// (json::dump recurses, and a hostile header may nest a million levels deep).
std::string brief(const json& v) {
    if (v.is_primitive()) return v.dump().substr(0, 80);
    if (v.size() <= 8 && std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_primitive(); }))
        return v.dump().substr(0, 120);
    return std::string("a JSON ") + v.type_name() + " of " + std::to_string(v.size()) + " items";
}

// How deeply the JSON text nests (brackets outside strings). A safetensors
// header nests 3 levels; nlohmann's copies and dumps recurse once per level,
// so a hostile header nested a million levels deep would overflow the stack
// (a vector of values, an array's, copies them when it grows).
size_t nesting_depth(const std::string& text) {
    size_t depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}
constexpr size_t kMaxHeaderDepth = 32;

std::string known_dtypes() {
    std::string out;
    for (const DtypeRow& row : kDtypes) out += (out.empty() ? "" : ", ") + std::string(row.safetensors);
    return out;
}

const char* safetensors_dtype(c10::ScalarType type) {
    const char* name = spl::dtype_name(type);
    for (const DtypeRow& row : kDtypes)
        if (std::strcmp(row.torch, name) == 0) return row.safetensors;
    return nullptr;
}

struct Entry {
    std::string name;
    c10::ScalarType dtype;
    std::vector<int64_t> shape;
    uint64_t begin, end;
    size_t order; // in the header
};

uint64_t offset_value(const json& v, const std::string& path, const std::string& what) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        fail(path, what + ": data_offsets must be two non-negative integers, got " + brief(v));
    return v.get<uint64_t>();
}

Entry parse_entry(const std::string& path, const std::string& name, const json& info, size_t order,
                  uint64_t data_size) {
    const std::string what = "tensor '" + name + "'";
    if (!info.is_object()) fail(path, what + ": its header entry is not an object: " + brief(info));
    for (const char* key : {"dtype", "shape", "data_offsets"})
        if (!info.contains(key)) fail(path, what + ": its header entry has no \"" + key + "\"");
    const json& dtype = info["dtype"];
    if (!dtype.is_string()) fail(path, what + ": dtype is not a text: " + brief(dtype));
    const std::string dtype_text = dtype.get<std::string>();
    const DtypeRow* row = nullptr;
    for (const DtypeRow& r : kDtypes)
        if (dtype_text == r.safetensors) row = &r;
    if (!row) fail(path, what + ": unknown dtype \"" + dtype_text + "\" (known: " + known_dtypes() + ")");
    const auto type = spl::io::dtype_named(row->torch);
    if (!type)
        fail(path, what + ": dtype " + dtype_text + " (" + row->torch + ") is not supported by this LibTorch (" +
                       SPL_TORCH_LIBTORCH_VERSION + ")");

    const json& shape = info["shape"];
    if (!shape.is_array()) fail(path, what + ": shape is not a list: " + brief(shape));
    std::vector<int64_t> sizes;
    for (const json& s : shape) {
        if (!s.is_number_integer() || s.get<int64_t>() < 0)
            fail(path, what + ": shape must hold non-negative integers, got " + brief(shape));
        sizes.push_back(s.get<int64_t>());
    }
    const json& offsets = info["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2)
        fail(path, what + ": data_offsets must be [begin, end], got " + brief(offsets));
    const uint64_t begin = offset_value(offsets[0], path, what);
    const uint64_t end = offset_value(offsets[1], path, what);
    if (end < begin) fail(path, what + ": data_offsets " + brief(offsets) + " end before they begin");
    if (end > data_size)
        fail(path, what + ": data_offsets " + brief(offsets) + " run past the end of the data (" +
                       std::to_string(data_size) + " bytes): the file is truncated or corrupt");
    const int64_t numel = spl::io::checked_numel(sizes, path, what);
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(numel), static_cast<uint64_t>(c10::elementSize(*type)), &bytes) ||
        bytes != end - begin)
        fail(path, what + ": shape " + spl::io::shape_text(sizes) + " of " + dtype_text + " needs " +
                       std::to_string(numel) + " x " + std::to_string(c10::elementSize(*type)) +
                       " bytes, data_offsets " + brief(offsets) + " hold " + std::to_string(end - begin));
    return Entry{name, *type, std::move(sizes), begin, end, order};
}

// An object's keys in the order they were first read.
struct KeyOrder {
    std::vector<std::string> keys;
    std::unordered_set<std::string> seen;
    // The key as kept (its first occurrence).
    void note(const std::string& key) {
        if (seen.insert(key).second) keys.push_back(key);
    }
};

// The keys of the header and of its (last) __metadata__ in the file's order, read by
// nlohmann's SAX interface (its parser callback is no help: after each entry it searches
// the object for a discarded value, quadratic again). A key given twice keeps its first
// place (and the map its last value), as ordered_json kept them.
struct HeaderKeys : nlohmann::json_sax<json> {
    KeyOrder top, metadata;
    int depth = 0;
    bool in_metadata = false; // the header's key being read is __metadata__

    bool key(string_t& k) override {
        if (depth == 1) {
            top.note(k);
            in_metadata = k == "__metadata__";
            if (in_metadata) metadata = KeyOrder{};
        } else if (depth == 2 && in_metadata) {
            metadata.note(k);
        }
        return true;
    }
    bool start_object(std::size_t) override { return ++depth, true; }
    bool end_object() override { return --depth, true; }
    bool start_array(std::size_t) override { return ++depth, true; }
    bool end_array() override { return --depth, true; }
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

struct Header {
    std::vector<Entry> entries; // in data order
    std::vector<std::pair<std::string, std::string>> metadata;
    uint64_t data_start = 0;
};

Header read_header(const spl::io::InputFile& file) {
    const std::string& path = file.path();
    if (file.size() < 8)
        fail(path, "the file is " + std::to_string(file.size()) +
                       " bytes long, too short for a safetensors file (8 bytes of header length, then the header)");
    unsigned char length_bytes[8];
    file.read_at(0, length_bytes, 8, "the header length");
    uint64_t n = 0;
    std::memcpy(&n, length_bytes, 8);
    const std::string hint = spl::io::looks_like(length_bytes, 8);
    if (n > kMaxHeader)
        fail(path, "the header length " + std::to_string(n) +
                       " is not believable (over 100 MB): not a safetensors file, or a corrupt one" + hint);
    if (n > file.size() - 8)
        fail(path, "truncated: the header length says " + std::to_string(n) + " bytes of JSON, the file has " +
                       std::to_string(file.size() - 8) + " after the length" + hint);
    std::string text(static_cast<size_t>(n), '\0');
    file.read_at(8, text.data(), n, "the header");
    if (const size_t depth = nesting_depth(text); depth > kMaxHeaderDepth)
        fail(path, "the header nests " + std::to_string(depth) +
                       " levels deep (a safetensors header nests 3): "
                       "not a safetensors file, or a corrupt one");
    json header;
    try {
        header = json::parse(text);
    } catch (const json::exception& e) {
        fail(path, std::string("the header is not valid JSON (") + e.what() + ")" + hint);
    }
    if (!header.is_object()) fail(path, "the header is not a JSON object: " + brief(header));
    // The map forgot the keys' order: a second pass over the (valid) text notes it.
    HeaderKeys keys;
    json::sax_parse(text, &keys);
    const KeyOrder& top = keys.top;
    const KeyOrder& meta = keys.metadata;

    Header out;
    out.data_start = 8 + n;
    const uint64_t data_size = file.size() - out.data_start;
    size_t order = 0;
    for (const std::string& key : top.keys) {
        const json& value = header.at(key);
        if (key == "__metadata__") {
            if (value.is_null()) continue;
            if (!value.is_object()) fail(path, "__metadata__ is not an object of texts: " + brief(value));
            for (const std::string& m : meta.keys) {
                const json& v = value.at(m);
                if (!v.is_string()) fail(path, "__metadata__[\"" + m + "\"] is not a text: " + brief(v));
                out.metadata.emplace_back(m, v.get<std::string>());
            }
            continue;
        }
        out.entries.push_back(parse_entry(path, key, value, order++, data_size));
    }
    std::stable_sort(out.entries.begin(), out.entries.end(), [](const Entry& a, const Entry& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.order < b.order;
    });
    return out;
}

at::Tensor read_tensor(const spl::io::InputFile& file, const Header& header, const Entry& e) {
    // Bool bytes are read as uint8 and compared with 0: a byte that is
    // neither 0 nor 1 is not a valid bool to hand to LibTorch.
    const bool is_bool = e.dtype == c10::kBool;
    at::Tensor t = at::empty(e.shape, at::TensorOptions().dtype(is_bool ? c10::kByte : e.dtype));
    const uint64_t bytes = e.end - e.begin;
    if (bytes > 0) file.read_at(header.data_start + e.begin, t.data_ptr(), bytes, "tensor '" + e.name + "'");
    return is_bool ? t.ne(0) : t;
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT void rt_torch_safetensors_save(const char* path, SplTextArray names, SplI64Array tensors,
                                                SplTextArray metadata) {
    spl::guarded<void>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const auto keys = spl::io::text_list(names, "names");
        const auto meta = spl::io::text_list(metadata, "metadata");
        if (tensors.len < 0 || (tensors.len > 0 && !tensors.data))
            throw spl::SplError("tensors: a list of tensors is required");
        if (static_cast<int64_t>(keys.size()) != tensors.len)
            throw spl::SplError("names and tensors differ in length: " + std::to_string(keys.size()) + " names, " +
                                std::to_string(tensors.len) + " tensors");
        if (meta.size() % 2 != 0) throw spl::SplError("metadata: expected key, value pairs (an even count)");

        // The header's text, one `"key":value` member at a time, in the order given.
        std::string text = "{";
        const auto member = [](std::string& object, const std::string& key, const std::string& value) {
            if (object.size() > 1) object += ',';
            object += json(key).dump();
            object += ':';
            object += value;
        };
        if (!meta.empty()) {
            std::unordered_set<std::string> seen;
            std::string m = "{";
            for (size_t i = 0; i < meta.size(); i += 2) {
                if (!seen.insert(meta[i]).second) throw spl::SplError("metadata: key '" + meta[i] + "' is given twice");
                member(m, meta[i], json(meta[i + 1]).dump());
            }
            member(text, "__metadata__", m + "}");
        }
        std::unordered_set<std::string> names_seen;
        std::vector<at::Tensor> dense;
        uint64_t offset = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
            const std::string what = "tensor '" + keys[i] + "'";
            if (keys[i] == "__metadata__") throw spl::SplError("the name __metadata__ is reserved for the metadata");
            if (!names_seen.insert(keys[i]).second) throw spl::SplError("the name '" + keys[i] + "' is given twice");
            at::Tensor t = spl::io::dense_cpu(tensors.data[i], what);
            const char* dtype = safetensors_dtype(t.scalar_type());
            if (!dtype)
                throw spl::SplError(what + ": safetensors has no dtype for " +
                                    std::string(spl::dtype_name(t.scalar_type())) + " (it has " + known_dtypes() + ")");
            const uint64_t bytes = static_cast<uint64_t>(t.numel()) * c10::elementSize(t.scalar_type());
            member(text, keys[i],
                   ordered_json{{"dtype", dtype},
                                {"shape", std::vector<int64_t>(t.sizes().begin(), t.sizes().end())},
                                {"data_offsets", {offset, offset + bytes}}}
                       .dump());
            offset += bytes;
            dense.push_back(std::move(t));
        }
        text += '}';
        text.append((8 - text.size() % 8) % 8, ' ');
        const uint64_t n = text.size();
        unsigned char length_bytes[8];
        std::memcpy(length_bytes, &n, 8);

        spl::io::AtomicWriter out(file);
        out.write(length_bytes, 8);
        out.write(text);
        for (const at::Tensor& t : dense)
            if (t.numel() > 0) out.write(t.data_ptr(), t.numel() * c10::elementSize(t.scalar_type()));
        out.commit();
    });
}

SPL_TORCH_EXPORT SplValue rt_torch_safetensors_load(const char* path) {
    return spl::guarded<SplValue>(__func__, [&] {
        const spl::io::InputFile file(spl::io::path_arg(path));
        const Header header = read_header(file);
        std::vector<std::string> names;
        std::vector<at::Tensor> tensors;
        for (const Entry& e : header.entries) {
            names.push_back(e.name);
            tensors.push_back(read_tensor(file, header, e));
        }
        return spl::io::names_and_handles(names, std::move(tensors));
    });
}

// The header's __metadata__ as key, value, key, value, ... in the file's order.
SPL_TORCH_EXPORT SplValue rt_torch_safetensors_metadata(const char* path) {
    return spl::guarded<SplValue>(__func__, [&] {
        const spl::io::InputFile file(spl::io::path_arg(path));
        const Header header = read_header(file);
        std::vector<std::string> flat;
        for (const auto& [key, value] : header.metadata) {
            flat.push_back(key);
            flat.push_back(value);
        }
        spl::ResultArena::current().reset();
        return spl::io::text_array(flat);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_safetensors_save, "path", "names", "tensors", "metadata")
SPL_EXTRA_RETURNS(rt_torch_safetensors_load, "([text], [i64])", "path")
SPL_EXTRA_RETURNS(rt_torch_safetensors_metadata, "[text]", "path")
