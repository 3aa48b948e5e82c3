// IDX files (MNIST's format, http://yann.lecun.com/exdb/mnist/): two zero
// bytes, a type byte (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32,
// 0x0D float32, 0x0E float64), the number of dimensions, each dimension as a
// big-endian uint32, then the values, big-endian, row-major. Read through
// zlib, so train-images-idx3-ubyte.gz is read as it is. uint8 stays uint8.
// The data must be exactly as long as the dimensions say: shorter is
// "truncated", longer an error too.
#include "extras/io/io_support.h"

#include <ATen/ops/empty.h>

#include <cstring>

namespace {

using spl::io::fail;

std::string hex(unsigned v) {
    static const char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[(v >> 4) & 15] + digits[v & 15];
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_read_idx(const char* path) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const std::string bytes = spl::io::read_maybe_gzip(file);
        const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
        if (bytes.size() < 4)
            fail(file, "the file is " + std::to_string(bytes.size()) +
                           " bytes long, too short for an IDX header (4 bytes of magic number)");
        if (b[0] != 0 || b[1] != 0)
            fail(file, "not an IDX file: its magic number should start with two zero bytes, it starts " + hex(b[0]) +
                           " " + hex(b[1]) + spl::io::looks_like(b, bytes.size()));
        c10::ScalarType type;
        switch (b[2]) {
        case 0x08: type = c10::kByte; break;
        case 0x09: type = c10::kChar; break;
        case 0x0B: type = c10::kShort; break;
        case 0x0C: type = c10::kInt; break;
        case 0x0D: type = c10::kFloat; break;
        case 0x0E: type = c10::kDouble; break;
        default:
            fail(file, "unknown IDX type code " + hex(b[2]) +
                           " (known: 0x08 uint8, 0x09 int8, 0x0b int16, 0x0c int32, 0x0d float32, 0x0e float64)");
        }
        const size_t ndim = b[3];
        if (bytes.size() < 4 + 4 * ndim)
            fail(file, "truncated: the header declares " + std::to_string(ndim) + " dimensions, the file ends after " +
                           std::to_string(bytes.size()) + " bytes");
        std::vector<int64_t> sizes;
        for (size_t d = 0; d < ndim; ++d) {
            const unsigned char* p = b + 4 + 4 * d;
            sizes.push_back((static_cast<int64_t>(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]);
        }
        const int64_t numel = spl::io::checked_numel(sizes, file, "the data");
        const size_t item = c10::elementSize(type);
        uint64_t need = 0;
        if (__builtin_mul_overflow(static_cast<uint64_t>(numel), static_cast<uint64_t>(item), &need))
            fail(file, "dimensions " + spl::io::shape_text(sizes) + " overflow");
        const uint64_t start = 4 + 4 * ndim;
        const uint64_t have = bytes.size() - start;
        if (have < need)
            fail(file, "truncated: dimensions " + spl::io::shape_text(sizes) + " need " + std::to_string(need) +
                           " bytes of data, the file has " + std::to_string(have));
        if (have > need)
            fail(file, std::to_string(have - need) + " bytes follow the " + std::to_string(need) +
                           " bytes of data that dimensions " + spl::io::shape_text(sizes) + " need: a corrupt file");
        at::Tensor t = at::empty(sizes, at::TensorOptions().dtype(type));
        if (need > 0) {
            std::memcpy(t.data_ptr(), b + start, static_cast<size_t>(need));
            spl::io::swap_bytes(t.data_ptr(), static_cast<size_t>(need), item);
        }
        return spl::new_handle(std::move(t));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_read_idx, "path")
