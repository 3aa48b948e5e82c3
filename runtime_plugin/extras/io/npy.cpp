// NumPy's .npy files (numpy/lib/format.py): the magic "\x93NUMPY", a version
// (1.0: a 2-byte header length; 2.0 and 3.0: 4 bytes), a Python dict literal
//     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded to a multiple of 64 bytes, then the raw array data.
//
// Read: bool, uint8, int8/16/32/64, uint16/32/64 (LibTorch 2.3+), float16/32/64
// and complex64/128, little- or big-endian (big-endian data is byte-swapped).
// A Fortran-order array (fortran_order: True) is read as its transpose's data
// and transposed back, so the tensor has the array's shape and values, in C
// order. Object arrays, strings, datetimes and structured dtypes are errors.
// Data shorter than the header's shape is "truncated"; bytes after it are an
// error too (np.load would ignore them; here they mean a corrupt file).
//
// Written: version 1.0 headers (2.0 when the header outgrows 65535 bytes),
// little-endian, C order, byte for byte what np.save writes. bfloat16 and
// complex32 have no NumPy dtype and are refused.
#include "extras/io/npy.h"

#include "extras/io/io_support.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <numeric>

namespace spl::io {
namespace {

struct Descr {
    const char* numpy; // kind and size, without the byte order
    const char* torch;
};
constexpr Descr kDescrs[] = {
    {"b1", "bool"},    {"u1", "uint8"},   {"i1", "int8"},      {"i2", "int16"},       {"i4", "int32"},
    {"i8", "int64"},   {"u2", "uint16"},  {"u4", "uint32"},    {"u8", "uint64"},      {"f2", "float16"},
    {"f4", "float32"}, {"f8", "float64"}, {"c8", "complex64"}, {"c16", "complex128"},
};

// The header dict, read as the small subset of Python literals np.save writes.
class HeaderParser {
public:
    HeaderParser(const std::string& text, const std::string& where) : s_(text), where_(where) {}

    struct Result {
        std::string descr;
        bool fortran_order = false;
        std::vector<int64_t> shape;
    };

    Result parse() {
        Result r;
        bool seen[3] = {false, false, false};
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            const std::string key = string_literal();
            expect(':');
            skip_space();
            if (key == "descr") {
                if (peek() == '[')
                    bad("descr is a list: structured (record) dtypes are not supported, only plain numbers and bool");
                r.descr = string_literal();
                seen[0] = true;
            } else if (key == "fortran_order") {
                r.fortran_order = boolean();
                seen[1] = true;
            } else if (key == "shape") {
                r.shape = int_tuple();
                seen[2] = true;
            } else {
                bad("unexpected key '" + key + "' in the header (expected descr, fortran_order, shape)");
            }
            skip_space();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            skip_space();
            if (peek() != '}') bad("expected ',' or '}' in the header at character " + std::to_string(i_));
        }
        if (!seen[0] || !seen[1] || !seen[2]) bad("the header lacks one of descr, fortran_order, shape");
        return r;
    }

private:
    [[noreturn]] void bad(const std::string& problem) const {
        std::string shown = s_.substr(0, 120);
        while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n')) shown.pop_back();
        fail(where_, problem + " (header: " + shown + ")");
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) bad(std::string("expected '") + c + "' at character " + std::to_string(i_));
        ++i_;
    }
    std::string string_literal() {
        skip_space();
        const char quote = peek();
        if (quote != '\'' && quote != '"') bad("expected a quoted text at character " + std::to_string(i_));
        const size_t end = s_.find(quote, i_ + 1);
        if (end == std::string::npos) bad("a quoted text is not closed");
        std::string out = s_.substr(i_ + 1, end - i_ - 1);
        i_ = end + 1;
        return out;
    }
    bool boolean() {
        if (s_.compare(i_, 4, "True") == 0) {
            i_ += 4;
            return true;
        }
        if (s_.compare(i_, 5, "False") == 0) {
            i_ += 5;
            return false;
        }
        bad("fortran_order is neither True nor False");
    }
    std::vector<int64_t> int_tuple() {
        expect('(');
        std::vector<int64_t> out;
        for (;;) {
            skip_space();
            if (peek() == ')') break;
            if (!std::isdigit(static_cast<unsigned char>(peek())))
                bad("shape must be a tuple of non-negative integers");
            int64_t v = 0;
            while (std::isdigit(static_cast<unsigned char>(peek()))) {
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, peek() - '0', &v))
                    bad("a size in shape overflows int64");
                ++i_;
            }
            if (peek() == 'L') ++i_; // Python 2's long
            out.push_back(v);
            skip_space();
            if (peek() == ',')
                ++i_;
            else if (peek() != ')')
                bad("shape must be a tuple of non-negative integers");
        }
        ++i_;
        return out;
    }

    const std::string& s_;
    const std::string& where_;
    size_t i_ = 0;
};

struct DtypeInfo {
    c10::ScalarType type;
    size_t swap_unit; // bytes per swapped value; 1: nothing to swap
    bool big_endian;
};

DtypeInfo parse_descr(const std::string& descr, const std::string& where) {
    std::string body = descr;
    char order = '=';
    if (!body.empty() && std::strchr("<>|=", body[0])) {
        order = body[0];
        body = body.substr(1);
    }
    if (body.empty()) fail(where, "empty dtype in the header");
    const char kind = body[0];
    if (kind == 'O') fail(where, "dtype '" + descr + "' is an object array (pickled Python objects): not supported");
    if (kind == 'U' || kind == 'S' || kind == 'a')
        fail(where, "dtype '" + descr + "' holds strings: only numbers and bool can become a tensor");
    if (kind == 'M' || kind == 'm')
        fail(where, "dtype '" + descr + "' is a datetime or timedelta: not supported (convert it to int64)");
    if (kind == 'V') fail(where, "dtype '" + descr + "' is a raw or structured (void) dtype: not supported");
    for (const Descr& d : kDescrs) {
        if (body != d.numpy) continue;
        const auto type = dtype_named(d.torch);
        if (!type)
            fail(where, "dtype '" + descr + "' (" + d.torch + ") is not supported by this LibTorch (" +
                            SPL_TORCH_LIBTORCH_VERSION + ")");
        const size_t size = c10::elementSize(*type);
        return DtypeInfo{*type, c10::isComplexType(*type) ? size / 2 : size, order == '>'};
    }
    fail(where, "dtype '" + descr +
                    "' is not supported (supported: bool, int8-64, uint8-64, float16/32/64, "
                    "complex64/128)");
}

const char* numpy_descr(c10::ScalarType type) {
    const char* name = dtype_name(type);
    for (const Descr& d : kDescrs)
        if (std::strcmp(d.torch, name) == 0) return d.numpy;
    return nullptr;
}

std::string python_tuple(c10::IntArrayRef sizes) {
    std::string out = "(";
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i > 0) out += ", ";
        out += std::to_string(sizes[i]);
    }
    if (sizes.size() == 1) out += ',';
    out += ')';
    return out;
}

// np.save's header for `t`: numpy.lib.format._write_array_header, byte for byte
// (sorted keys, room for the first axis to grow to 21 digits, padding to 64).
std::string npy_header(const at::Tensor& t, const std::string& what) {
    const char* body = numpy_descr(t.scalar_type());
    if (!body) {
        const std::string name = dtype_name(t.scalar_type());
        const std::string advice =
            name == "bfloat16" || name == "complex32"
                ? "; convert it (to(\"float32\") / to(\"complex64\")) or use save_file (safetensors)"
                : "";
        throw SplError(what + ": NumPy has no dtype for " + name + advice);
    }
    const std::string order = c10::elementSize(t.scalar_type()) == 1 ? "|" : "<";
    std::string dict =
        "{'descr': '" + order + body + "', 'fortran_order': False, 'shape': " + python_tuple(t.sizes()) + ", }";
    if (t.dim() > 0) {
        const size_t digits = std::to_string(t.size(0)).size();
        if (digits < 21) dict.append(21 - digits, ' ');
    }
    // _wrap_header: 64 - (prefix + len + 1) % 64 spaces (64 when already aligned), then "\n".
    const auto wrapped = [&](size_t prefix) {
        return dict + std::string(64 - (prefix + dict.size() + 1) % 64, ' ') + "\n";
    };
    std::string header_text = wrapped(10);
    const bool version1 = header_text.size() <= 65535;
    if (!version1) header_text = wrapped(12);
    std::string out = "\x93NUMPY";
    out += version1 ? '\x01' : '\x02';
    out += '\x00';
    const uint32_t n = static_cast<uint32_t>(header_text.size());
    out += static_cast<char>(n & 0xff);
    out += static_cast<char>((n >> 8) & 0xff);
    if (!version1) {
        out += static_cast<char>((n >> 16) & 0xff);
        out += static_cast<char>((n >> 24) & 0xff);
    }
    return out + header_text;
}

} // namespace

at::Tensor parse_npy(const char* data, size_t size, const std::string& path, const std::string& member) {
    const std::string where = member.empty() ? path : path + "' member '" + member;
    if (size < 10 || std::memcmp(data, "\x93NUMPY", 6) != 0)
        fail(where, "not a .npy file (no \\x93NUMPY magic)" + looks_like(data, size));
    const int major = static_cast<unsigned char>(data[6]);
    const int minor = static_cast<unsigned char>(data[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(where, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                        " (1.0, 2.0 and 3.0 are known)");
    size_t prefix = major == 1 ? 10 : 12;
    if (size < prefix) fail(where, "truncated: the file ends inside the header length");
    const auto* u = reinterpret_cast<const unsigned char*>(data);
    uint64_t header_len = u[8] | (u[9] << 8);
    if (major > 1) header_len |= (static_cast<uint64_t>(u[10]) << 16) | (static_cast<uint64_t>(u[11]) << 24);
    if (header_len > size - prefix)
        fail(where, "truncated: the header length says " + std::to_string(header_len) + " bytes, " +
                        std::to_string(size - prefix) + " follow");
    const std::string header(data + prefix, static_cast<size_t>(header_len));
    const auto fields = HeaderParser(header, where).parse();
    const DtypeInfo dtype = parse_descr(fields.descr, where);

    const int64_t numel = checked_numel(fields.shape, where, "the array");
    const size_t item = c10::elementSize(dtype.type);
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(numel), static_cast<uint64_t>(item), &bytes))
        fail(where, "shape " + shape_text(fields.shape) + " overflows");
    const uint64_t data_start = prefix + header_len;
    const uint64_t available = size - data_start;
    if (available < bytes)
        fail(where, "truncated: shape " + shape_text(fields.shape) + " of '" + fields.descr + "' needs " +
                        std::to_string(bytes) + " bytes of data, " + std::to_string(available) + " follow the header");
    if (available > bytes)
        fail(where, std::to_string(available - bytes) + " bytes follow the array's " + std::to_string(bytes) +
                        " bytes of data: a corrupt file (or several arrays appended to one file)");

    // Fortran order: the data is the transpose's, in C order.
    std::vector<int64_t> stored = fields.shape;
    if (fields.fortran_order) std::reverse(stored.begin(), stored.end());
    const bool is_bool = dtype.type == c10::kBool;
    at::Tensor t = at::empty(stored, at::TensorOptions().dtype(is_bool ? c10::kByte : dtype.type));
    if (bytes > 0) {
        std::memcpy(t.data_ptr(), data + data_start, static_cast<size_t>(bytes));
        if (dtype.big_endian) swap_bytes(t.data_ptr(), static_cast<size_t>(bytes), dtype.swap_unit);
    }
    if (is_bool) t = t.ne(0);
    if (fields.fortran_order && t.dim() > 1) {
        std::vector<int64_t> reversed(static_cast<size_t>(t.dim()));
        std::iota(reversed.rbegin(), reversed.rend(), 0);
        t = t.permute(reversed).contiguous();
    }
    return t;
}

} // namespace spl::io

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_load_npy(const char* path) {
    return spl::guarded<int64_t>(__func__, [&] {
        const spl::io::InputFile file(spl::io::path_arg(path));
        const std::string bytes = file.read_all();
        return spl::new_handle(spl::io::parse_npy(bytes.data(), bytes.size(), file.path()));
    });
}

SPL_TORCH_EXPORT void rt_torch_save_npy(const char* path, int64_t t) {
    spl::guarded<void>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const at::Tensor dense = spl::io::dense_cpu(t, "t");
        const std::string header = spl::io::npy_header(dense, "t");
        spl::io::AtomicWriter out(file);
        out.write(header);
        if (dense.numel() > 0) out.write(dense.data_ptr(), dense.numel() * c10::elementSize(dense.scalar_type()));
        out.commit();
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_load_npy, "path")
SPL_EXTRA(rt_torch_save_npy, "path", "t")
