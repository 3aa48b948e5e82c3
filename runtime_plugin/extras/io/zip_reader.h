// A zip archive read from memory through its central directory (APPNOTE.TXT
// 4.3): the end-of-central-directory record (ZIP64's too), each member's
// central entry for its method, sizes, CRC-32 and local header offset, then
// the local header for where its data starts. Stored and deflated (zlib)
// members; every member's CRC-32 is checked. Encrypted and multi-disk
// archives and other methods are errors. Every offset and length is checked
// against the archive's size before it is read. Shared by .npz (npz.cpp) and
// PyTorch's torch.save files (pt_archive.cpp).
#pragma once

#include "extras/io/io_support.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spl::io {

struct ZipMember {
    std::string name;
    uint16_t method;
    uint32_t crc;
    uint64_t compressed, size, local_offset;
};

class ZipReader {
public:
    // `bytes` (the whole archive) and `path` must outlive the reader. `kind`
    // names what the file should be in messages: "a zip archive (.npz)".
    ZipReader(const std::string& bytes, const std::string& path, std::string kind)
        : b_(reinterpret_cast<const unsigned char*>(bytes.data())), n_(bytes.size()), path_(path),
          kind_(std::move(kind)) {}

    std::vector<ZipMember> members();
    // The member's uncompressed bytes, CRC-checked.
    std::string data(const ZipMember& m);

private:
    void need(uint64_t offset, uint64_t len, const std::string& what) const;
    uint64_t find_eocd() const;
    void read_zip64_extra(ZipMember& m, const unsigned char* extra, uint16_t len) const;
    std::string inflate_member(const ZipMember& m, const unsigned char* src) const;

    const unsigned char* b_;
    uint64_t n_;
    const std::string& path_;
    std::string kind_;
};

} // namespace spl::io
