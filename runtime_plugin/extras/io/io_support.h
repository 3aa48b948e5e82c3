// What the file-format extras share (extras/io/): `[text]` arguments as strings, reading
// a file (whole, by offset, or through zlib), writing one atomically, the
// dense CPU bytes of a tensor to save, and the (names, handles) result.
//
// Every problem is an spl::SplError whose text names the file and the problem
// ("'model.safetensors': the header is not valid JSON (...)"); the extra's
// guard prefixes the function's name. Nothing here aborts or crashes on bad
// input: every length read from a file is checked against the file's size
// before anything is allocated or copied.
#pragma once

#include "extras/extra_function.h"

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "extras/io reads and writes little-endian files by copying bytes: a big-endian host needs swaps");

namespace spl::io {

// The problem `problem` with the file `path`: "'path': problem".
[[noreturn]] void fail(const std::string& path, const std::string& problem);
// strerror(err), thread-safe.
std::string errno_text(int err);

// A required, non-empty path argument.
std::string path_arg(const char* path, const char* name = "path");
// A [text] argument as strings (NULL items are an error naming `name`).
std::vector<std::string> text_list(SplTextArray values, const char* name);

// What the first bytes of a file look like, for messages about a file of the
// wrong format: " (it looks like a gzip file)", or "" when nothing is known.
std::string looks_like(const void* data, size_t size);

// A file opened for reading: a missing file, a directory, an unreadable file
// are errors naming it. `read_at` fails with "truncated" when the file ends early.
class InputFile {
public:
    explicit InputFile(std::string path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::string& path() const { return path_; }
    uint64_t size() const { return size_; }
    // Reads exactly `n` bytes at `offset` into `dst`; `what` names them in messages.
    void read_at(uint64_t offset, void* dst, uint64_t n, const std::string& what) const;
    std::string read_all() const;

private:
    std::string path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

// The whole content of `path`, decompressed when it is gzip (zlib's gzread,
// which passes other files through as they are). A truncated or corrupt gzip
// stream is an error naming the file and zlib's reason.
std::string read_maybe_gzip(const std::string& path);

// Writes `path` atomically: the bytes go to `path.tmp-XXXXXX` in the same
// directory; commit() fsyncs, closes and renames it over `path`. Until then
// (and after any failure) `path` is untouched, and the temporary file is
// removed when the writer is destroyed. A failed write (a full disk, a file
// size limit, an unwritable directory) names `path` and errno's text. An
// existing file keeps its permission bits; a symbolic link at `path` is
// replaced by the file (not written through), as `mv` would.
class AtomicWriter {
public:
    explicit AtomicWriter(std::string path);
    ~AtomicWriter();
    AtomicWriter(const AtomicWriter&) = delete;
    AtomicWriter& operator=(const AtomicWriter&) = delete;

    void write(const void* data, size_t n);
    void write(const std::string& bytes) { write(bytes.data(), bytes.size()); }
    void commit();

private:
    [[noreturn]] void failed(const std::string& doing, int err);
    std::string path_;
    std::string temp_;
    int fd_ = -1;
    bool committed_ = false;
};

// The tensor behind `handle` as a dense, contiguous CPU tensor whose bytes
// can be written as they are: detached, lazy conjugate/negative views and
// zero tensors made real, copied from another device to the CPU, and made
// contiguous (row-major). Sparse, quantized and other non-strided tensors are
// an error naming `what`.
at::Tensor dense_cpu(int64_t handle, const std::string& what);

// "[2, 3]"
std::string shape_text(c10::IntArrayRef sizes);
// The product of `sizes`, each checked non-negative; an error when it overflows.
int64_t checked_numel(const std::vector<int64_t>& sizes, const std::string& path, const std::string& what);
// The dtype PyTorch calls `name`, or nullopt when this LibTorch has none
// (float8 and uint16/32/64 came in 2.1 and 2.3).
std::optional<c10::ScalarType> dtype_named(const char* name);

// Swaps the bytes of every `unit`-byte value in `data` (big-endian files).
void swap_bytes(void* data, size_t size, size_t unit);

// A [text] result in the result arena (reset by the caller).
SplValue text_array(const std::vector<std::string>& texts);

// Whether `s` is well-formed UTF-8 in its lead and continuation bytes (not every check:
// overlong forms and surrogates pass, as Python's surrogatepass decoding takes them).
bool valid_utf8(const std::string& s);
// The result of a load of named tensors: ([text], [i64]) with fresh handles,
// made only once every tensor was read (an error leaks none).
SplValue names_and_handles(const std::vector<std::string>& names, std::vector<at::Tensor> tensors);

} // namespace spl::io
