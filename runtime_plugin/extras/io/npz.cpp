// NumPy's .npz files: a zip archive of .npy members (np.savez: stored;
// np.savez_compressed: deflated), read by zip_reader.h (the central
// directory, ZIP64 too, which np.savez's zipfile may write; every member's
// CRC-32 checked; stored and deflated members only). Member "x.npy" is the
// tensor "x", in the archive's order. A member that is not a .npy is an error.
#include "extras/io/io_support.h"
#include "extras/io/npy.h"
#include "extras/io/zip_reader.h"

namespace {

using spl::io::fail;

} // namespace

extern "C" {

SPL_TORCH_EXPORT SplValue rt_torch_load_npz(const char* path) {
    return spl::guarded<SplValue>(__func__, [&] {
        const spl::io::InputFile file(spl::io::path_arg(path));
        const std::string bytes = file.read_all();
        spl::io::ZipReader zip(bytes, file.path(), "a zip archive (.npz)");
        std::vector<std::string> names;
        std::vector<at::Tensor> tensors;
        for (const spl::io::ZipMember& m : zip.members()) {
            if (!m.name.empty() && m.name.back() == '/') continue; // a directory entry
            const std::string suffix = ".npy";
            if (m.name.size() < suffix.size() ||
                m.name.compare(m.name.size() - suffix.size(), suffix.size(), suffix) != 0)
                fail(file.path(), "member '" + m.name + "' is not a .npy array");
            const std::string data = zip.data(m);
            tensors.push_back(spl::io::parse_npy(data.data(), data.size(), file.path(), m.name));
            names.push_back(m.name.substr(0, m.name.size() - suffix.size()));
        }
        return spl::io::names_and_handles(names, std::move(tensors));
    });
}

} // extern "C"

SPL_EXTRA_RETURNS(rt_torch_load_npz, "([text], [i64])", "path")
