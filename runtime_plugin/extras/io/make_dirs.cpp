// Creating folders (os.makedirs): what SummaryWriter's log_dir and checkpoint folders
// need from the plugin, since Simple has no file-system library of its own.
#include "core/shapes_only.h"
#include "extras/io/io_support.h"

#include <filesystem>
#include <system_error>

extern "C" {

// Creates `path` and any missing parents, as os.makedirs(path, exist_ok=exist_ok): an
// existing folder is an error only without exist_ok; an existing file never passes.
SPL_TORCH_EXPORT void rt_torch_make_dirs(const char* path, bool exist_ok) {
    spl::guarded<void>(__func__, [&] {
        namespace fs = std::filesystem;
        const std::string dir = spl::io::path_arg(path);
        spl::refuse_file_in_shapes_only_run(dir);
        std::error_code ec;
        const fs::file_status status = fs::status(dir, ec);
        if (fs::exists(status)) {
            if (!fs::is_directory(status)) spl::io::fail(dir, "exists and is not a directory");
            if (!exist_ok) spl::io::fail(dir, "the directory already exists");
            return;
        }
        fs::create_directories(dir, ec);
        if (ec) spl::io::fail(dir, "cannot create the directory: " + ec.message());
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_make_dirs, "path", "exist_ok")
