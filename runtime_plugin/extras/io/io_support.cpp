// Reading and atomically writing files for the file-format extras.
#include "extras/io/io_support.h"

#include "core/shapes_only.h"

#include <ATen/ops/zeros.h>

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spl::io {

void fail(const std::string& path, const std::string& problem) { throw SplError("'" + path + "': " + problem); }

std::string errno_text(int err) {
    char buffer[256] = {0};
    // The GNU strerror_r returns the text (maybe not in buffer); the XSI one fills buffer.
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    return strerror_r(err, buffer, sizeof buffer);
#else
    if (strerror_r(err, buffer, sizeof buffer) != 0) return "error " + std::to_string(err);
    return buffer;
#endif
}

std::string path_arg(const char* path, const char* name) {
    const std::string_view p = required_text(path, name);
    if (p.empty()) throw SplError(std::string(name) + ": a file name is required, got \"\"");
    return std::string(p);
}

std::vector<std::string> text_list(SplTextArray values, const char* name) {
    if (values.len < 0 || (values.len > 0 && !values.data))
        throw SplError(std::string(name) + ": a list of texts is required");
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(values.len));
    for (int64_t i = 0; i < values.len; ++i) {
        if (!values.data[i]) throw SplError(std::string(name) + "[" + std::to_string(i) + "] is nil, not a text");
        out.emplace_back(values.data[i]);
    }
    return out;
}

std::string looks_like(const void* data, size_t size) {
    const auto* b = static_cast<const unsigned char*>(data);
    const auto starts = [&](const char* magic, size_t n) { return size >= n && std::memcmp(b, magic, n) == 0; };
    if (starts("\x93NUMPY", 6)) return " (it looks like a NumPy .npy file)";
    if (starts("PK\x03\x04", 4) || starts("PK\x05\x06", 4)) return " (it looks like a zip archive, such as .npz)";
    if (starts("\x1f\x8b", 2)) return " (it looks like a gzip file)";
    if (starts("\x80\x02", 2) || starts("\x80\x04", 2) || starts("\x80\x05", 2))
        return " (it looks like a Python pickle)";
    if (size >= 4 && b[0] == 0 && b[1] == 0 && b[2] >= 0x08 && b[2] <= 0x0E) return " (it looks like an IDX file)";
    return "";
}

// --- reading --------------------------------------------------------------------

InputFile::InputFile(std::string path) : path_(std::move(path)) {
    refuse_file_in_shapes_only_run(path_);
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(path_, "cannot open: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        fail(path_, "cannot stat: " + errno_text(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        fail(path_, "is a directory, not a file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        fail(path_, "is not a regular file");
    }
    size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

void InputFile::read_at(uint64_t offset, void* dst, uint64_t n, const std::string& what) const {
    if (offset > size_ || n > size_ - offset)
        fail(path_, "truncated: " + what + " needs bytes " + std::to_string(offset) + " to " +
                        std::to_string(offset + n) + ", the file has " + std::to_string(size_));
    auto* out = static_cast<char*>(dst);
    uint64_t done = 0;
    while (done < n) {
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n - done, 1u << 30));
        const ssize_t got = ::pread(fd_, out + done, chunk, static_cast<off_t>(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            fail(path_, "cannot read " + what + ": " + errno_text(errno));
        }
        if (got == 0) fail(path_, "truncated: the file ended while reading " + what + " (it shrank while being read?)");
        done += static_cast<uint64_t>(got);
    }
}

std::string InputFile::read_all() const {
    std::string bytes(static_cast<size_t>(size_), '\0');
    if (size_ > 0) read_at(0, bytes.data(), size_, "the file");
    return bytes;
}

std::string read_maybe_gzip(const std::string& path) {
    // Opened and checked as a plain file first: a directory, a missing or an
    // unreadable file get the same messages as everywhere else.
    { InputFile check(path); }
    errno = 0;
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) fail(path, "cannot open: " + errno_text(errno ? errno : ENOMEM));
    std::string out;
    std::vector<char> buffer(1 << 16);
    for (;;) {
        const int got = gzread(gz, buffer.data(), static_cast<unsigned>(buffer.size()));
        if (got <= 0) break; // the end, or an error that gzerror names below
        out.append(buffer.data(), static_cast<size_t>(got));
    }
    int code = Z_OK;
    const char* message = gzerror(gz, &code);
    std::string problem;
    if (code == Z_ERRNO)
        problem = "cannot read: " + errno_text(errno);
    else if (code != Z_OK && code != Z_STREAM_END) {
        // zlib's message starts with the path it was given: said once, in front.
        std::string reason = message ? message : "?";
        if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
        problem = "the gzip data is corrupt or truncated (zlib: " + reason + ")";
    }
    gzclose(gz);
    if (!problem.empty()) fail(path, problem);
    return out;
}

// --- writing --------------------------------------------------------------------

namespace {

// Six random characters: splitmix64 over the time, the process and a counter
// (no thread_local generator: the plugin's TLS is initial-exec and must stay small).
std::string random_suffix() {
    static std::atomic<uint64_t> counter{0};
    uint64_t x = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                 (static_cast<uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s(6, 'x');
    for (char& c : s) {
        c = alphabet[x % (sizeof alphabet - 1)];
        x /= sizeof alphabet - 1;
    }
    return s;
}

std::string parent_dir(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

} // namespace

AtomicWriter::AtomicWriter(std::string path) : path_(std::move(path)) {
    refuse_file_in_shapes_only_run(path_);
    struct stat st {};
    const bool exists = ::stat(path_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) fail(path_, "cannot write: it is a directory");
    // O_EXCL with a random name, rather than mkstemp: the file gets the usual
    // 0666 & ~umask (mkstemp's is 0600), as a plain open of `path` would.
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        temp_ = path_ + ".tmp-" + random_suffix();
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0 && errno != EEXIST) {
            const int err = errno;
            temp_.clear();
            fail(path_,
                 "cannot write: cannot create a temporary file in " + parent_dir(path_) + ": " + errno_text(err));
        }
    }
    if (fd_ < 0) {
        temp_.clear();
        fail(path_, "cannot write: no free temporary name next to it");
    }
    // An existing file keeps its permissions.
    if (exists) (void)::fchmod(fd_, st.st_mode & 07777);
}

AtomicWriter::~AtomicWriter() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicWriter::failed(const std::string& doing, int err) {
    // Removed now, not only in the destructor: the message is final.
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
    fail(path_, "cannot write (" + doing + "): " + errno_text(err) + " (the file is unchanged)");
}

void AtomicWriter::write(const void* data, size_t n) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t put = ::write(fd_, p, std::min<size_t>(n, 1u << 30));
        if (put < 0) {
            if (errno == EINTR) continue;
            failed("writing", errno);
        }
        if (put == 0) failed("writing", ENOSPC);
        p += put;
        n -= static_cast<size_t>(put);
    }
}

void AtomicWriter::commit() {
    if (::fsync(fd_) != 0) failed("fsync", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) failed("close", errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) failed("rename", errno);
    committed_ = true;
    // The rename itself made durable; a directory that cannot be synced
    // (some file systems refuse) leaves the file written all the same.
    const int dir = ::open(parent_dir(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

// --- tensors --------------------------------------------------------------------

at::Tensor dense_cpu(int64_t handle, const std::string& what) {
    at::Tensor t = spl::tensor(handle, "tensor").detach();
    if (t.is_quantized()) throw SplError(what + ": a quantized tensor cannot be saved; dequantize() it first");
    if (t.layout() != c10::kStrided)
        throw SplError(what + ": only dense (strided) tensors can be saved, this one is " + layout_name(t.layout()) +
                       "; to_dense() it first");
    if (t._is_zerotensor()) t = at::zeros(t.sizes(), t.options());
    t = t.resolve_conj().resolve_neg();
    if (!t.device().is_cpu()) t = t.to(c10::Device(c10::kCPU));
    return t.contiguous();
}

std::string shape_text(c10::IntArrayRef sizes) {
    std::string out = "[";
    for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
    return out + "]";
}

int64_t checked_numel(const std::vector<int64_t>& sizes, const std::string& path, const std::string& what) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 0) fail(path, what + ": negative size in shape " + shape_text(sizes));
        if (__builtin_mul_overflow(n, s, &n)) fail(path, what + ": shape " + shape_text(sizes) + " overflows int64");
    }
    return n;
}

std::optional<c10::ScalarType> dtype_named(const char* name) {
    try {
        return parse_dtype(name);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void swap_bytes(void* data, size_t size, size_t unit) {
    if (unit <= 1) return;
    auto* b = static_cast<unsigned char*>(data);
    for (size_t i = 0; i + unit <= size; i += unit)
        for (size_t j = 0; j < unit / 2; ++j) std::swap(b[i + j], b[i + unit - 1 - j]);
}

bool valid_utf8(const std::string& s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > n) return false;
        for (size_t k = 1; k < len; ++k)
            if ((p[i + k] & 0xC0) != 0x80) return false;
        i += len;
    }
    return true;
}

SplValue text_array(const std::vector<std::string>& texts) {
    ResultArena& arena = ResultArena::current();
    const size_t n = texts.size();
    SplValue* items = arena.values(n);
    // All the texts in one arena text, each NUL-terminated: the arena keeps
    // its texts as std::strings in a vector, and a short one's characters move
    // when that vector grows, so one arena text per name could leave earlier
    // pointers dangling. Lengths are explicit (a name may hold a NUL byte).
    std::string joined;
    std::vector<size_t> starts;
    for (const std::string& text : texts) {
        starts.push_back(joined.size());
        joined += text;
        joined += '\0';
    }
    const char* base = arena.text(std::move(joined));
    for (size_t i = 0; i < n; ++i) {
        SplValue v = v_nil();
        v.tag = SPL_TEXT;
        v.as.text = SplText{base + starts[i], static_cast<int64_t>(texts[i].size())};
        items[i] = v;
    }
    return v_array(items, static_cast<int64_t>(n));
}

SplValue names_and_handles(const std::vector<std::string>& names, std::vector<at::Tensor> tensors) {
    ResultArena::current().reset();
    const SplValue name_array = text_array(names);
    SplValue* handles = ResultArena::current().values(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) handles[i] = v_i64(new_handle(std::move(tensors[i])));
    return tuple_value({name_array, v_array(handles, static_cast<int64_t>(tensors.size()))});
}

} // namespace spl::io
