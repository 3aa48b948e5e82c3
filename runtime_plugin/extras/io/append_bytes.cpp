// Appending raw bytes to a file: what a log format written in Simple (TensorBoard's event
// files, lib.torch.utils.tensorboard) needs from the plugin, since Simple has no bytes type.
#include "core/shapes_only.h"
#include "extras/io/io_support.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include <vector>

extern "C" {

// data: byte values 0..255 (an [i64], Simple having no bytes type). The file is created
// when missing and written to its end with one write(); `flush` also fsyncs it, so a
// reader sees every record written so far.
SPL_TORCH_EXPORT void rt_torch_append_bytes(const char* path, SplI64Array data, bool flush) {
    spl::guarded<void>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        spl::refuse_file_in_shapes_only_run(file);
        std::vector<unsigned char> bytes(static_cast<size_t>(data.len));
        for (int64_t i = 0; i < data.len; ++i) {
            if (data.data[i] < 0 || data.data[i] > 255)
                spl::io::fail(file, "byte " + std::to_string(i) + " is " + std::to_string(data.data[i]) +
                                        ", not a value in 0..255");
            bytes[static_cast<size_t>(i)] = static_cast<unsigned char>(data.data[i]);
        }
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0) spl::io::fail(file, "cannot open for appending: " + spl::io::errno_text(errno));
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                const int err = errno;
                ::close(fd);
                spl::io::fail(file, "cannot append: " + spl::io::errno_text(err));
            }
            done += static_cast<size_t>(n);
        }
        if (flush && ::fsync(fd) != 0) {
            const int err = errno;
            ::close(fd);
            spl::io::fail(file, "cannot flush: " + spl::io::errno_text(err));
        }
        ::close(fd);
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_append_bytes, "path", "data", "flush")
