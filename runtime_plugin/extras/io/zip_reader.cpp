// The zip reader of extras/io (zip_reader.h).
#include "extras/io/zip_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace spl::io {

namespace {

uint16_t u16(const unsigned char* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t u32(const unsigned char* p) {
    return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
           (static_cast<uint32_t>(p[3]) << 24);
}
uint64_t u64(const unsigned char* p) { return u32(p) | (static_cast<uint64_t>(u32(p + 4)) << 32); }

} // namespace

std::vector<ZipMember> ZipReader::members() {
    const uint64_t eocd = find_eocd();
    uint64_t count = u16(b_ + eocd + 10);
    uint64_t cd_size = u32(b_ + eocd + 12);
    uint64_t cd_offset = u32(b_ + eocd + 16);
    if (u16(b_ + eocd + 4) != 0 || u16(b_ + eocd + 6) != 0) fail(path_, "multi-disk zip archives are not supported");
    if (count == 0xFFFF || cd_size == 0xFFFFFFFF || cd_offset == 0xFFFFFFFF) {
        // ZIP64: the locator sits just before the end record.
        if (eocd < 20 || u32(b_ + eocd - 20) != 0x07064b50)
            fail(path_, "corrupt zip: a ZIP64 archive without its ZIP64 locator");
        const uint64_t z = u64(b_ + eocd - 20 + 8);
        need(z, 56, "the ZIP64 end record");
        if (u32(b_ + z) != 0x06064b50) fail(path_, "corrupt zip: the ZIP64 end record is not where its locator says");
        count = u64(b_ + z + 32);
        cd_size = u64(b_ + z + 40);
        cd_offset = u64(b_ + z + 48);
    }
    need(cd_offset, cd_size, "the central directory");
    std::vector<ZipMember> out;
    uint64_t p = cd_offset;
    for (uint64_t i = 0; i < count; ++i) {
        need(p, 46, "a central directory entry");
        if (u32(b_ + p) != 0x02014b50)
            fail(path_, "corrupt zip: central directory entry " + std::to_string(i) + " has a bad signature");
        ZipMember m;
        const uint16_t flags = u16(b_ + p + 8);
        m.method = u16(b_ + p + 10);
        m.crc = u32(b_ + p + 16);
        m.compressed = u32(b_ + p + 20);
        m.size = u32(b_ + p + 24);
        const uint16_t name_len = u16(b_ + p + 28), extra_len = u16(b_ + p + 30), comment_len = u16(b_ + p + 32);
        m.local_offset = u32(b_ + p + 42);
        need(p + 46, static_cast<uint64_t>(name_len) + extra_len + comment_len, "a central directory entry");
        m.name.assign(reinterpret_cast<const char*>(b_ + p + 46), name_len);
        if (flags & 1) fail(path_, "member '" + m.name + "' is encrypted: not supported");
        read_zip64_extra(m, b_ + p + 46 + name_len, extra_len);
        out.push_back(std::move(m));
        p += 46 + static_cast<uint64_t>(name_len) + extra_len + comment_len;
    }
    return out;
}

std::string ZipReader::data(const ZipMember& m) {
    need(m.local_offset, 30, "member '" + m.name + "''s local header");
    const unsigned char* h = b_ + m.local_offset;
    if (u32(h) != 0x04034b50) fail(path_, "corrupt zip: member '" + m.name + "''s local header has a bad signature");
    const uint64_t start = m.local_offset + 30 + u16(h + 26) + u16(h + 28);
    need(start, m.compressed, "member '" + m.name + "''s data");
    const unsigned char* src = b_ + start;
    std::string out;
    if (m.method == 0) {
        if (m.compressed != m.size)
            fail(path_, "corrupt zip: stored member '" + m.name + "' has different compressed and real sizes");
        out.assign(reinterpret_cast<const char*>(src), static_cast<size_t>(m.size));
    } else if (m.method == 8) {
        out = inflate_member(m, src);
    } else {
        fail(path_, "member '" + m.name + "' uses compression method " + std::to_string(m.method) +
                        ": only stored (0) and deflated (8) are supported");
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t done = 0; done < out.size();) {
        const size_t chunk = std::min<size_t>(out.size() - done, std::numeric_limits<uInt>::max());
        crc = crc32(crc, reinterpret_cast<const Bytef*>(out.data() + done), static_cast<uInt>(chunk));
        done += chunk;
    }
    if (crc != m.crc) fail(path_, "member '" + m.name + "' fails its CRC-32 check: the archive is corrupt");
    return out;
}

void ZipReader::need(uint64_t offset, uint64_t len, const std::string& what) const {
    if (offset > n_ || len > n_ - offset)
        fail(path_, "truncated or corrupt zip: " + what + " (bytes " + std::to_string(offset) + " to " +
                        std::to_string(offset + len) + ") lies outside the file (" + std::to_string(n_) + " bytes)");
}

uint64_t ZipReader::find_eocd() const {
    if (n_ < 22) fail(path_, "not " + kind_ + ": the file is too short" + spl::io::looks_like(b_, n_));
    const uint64_t lowest = n_ - 22 > 65535 ? n_ - 22 - 65535 : 0;
    for (uint64_t p = n_ - 22 + 1; p-- > lowest;)
        if (u32(b_ + p) == 0x06054b50 && p + 22 + u16(b_ + p + 20) == n_) return p;
    if (u32(b_) == 0x04034b50)
        fail(path_, "a truncated or corrupt zip archive: no end-of-central-directory record at its end");
    fail(path_, "not " + kind_ + ": no end-of-central-directory record" + spl::io::looks_like(b_, n_));
}

void ZipReader::read_zip64_extra(ZipMember& m, const unsigned char* extra, uint16_t len) const {
    for (uint16_t q = 0; q + 4 <= len;) {
        const uint16_t id = u16(extra + q), size = u16(extra + q + 2);
        if (q + 4 + size > len) break;
        if (id == 0x0001) {
            const unsigned char* f = extra + q + 4;
            uint16_t used = 0;
            const auto take = [&](uint64_t& field) {
                if (field != 0xFFFFFFFF) return;
                if (used + 8 > size) fail(path_, "corrupt zip: member '" + m.name + "''s ZIP64 field is short");
                field = u64(f + used);
                used += 8;
            };
            take(m.size);
            take(m.compressed);
            take(m.local_offset);
        }
        q += 4 + size;
    }
}

std::string ZipReader::inflate_member(const ZipMember& m, const unsigned char* src) const {
    // Deflate cannot expand data more than ~1032 times: a larger claimed
    // size is a corrupt entry, refused before allocating it.
    if (m.size / 1032 > m.compressed + 1)
        fail(path_, "corrupt zip: member '" + m.name + "' claims " + std::to_string(m.size) + " bytes from " +
                        std::to_string(m.compressed) + " compressed");
    std::string out(static_cast<size_t>(m.size), '\0');
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw spl::SplError("zlib: inflateInit2 failed");
    uint64_t in_left = m.compressed, out_done = 0;
    const unsigned char* in = src;
    int rc = Z_OK;
    while (rc == Z_OK) {
        if (zs.avail_in == 0 && in_left > 0) {
            const uInt chunk = static_cast<uInt>(std::min<uint64_t>(in_left, 1u << 30));
            zs.next_in = const_cast<Bytef*>(in);
            zs.avail_in = chunk;
            in += chunk;
            in_left -= chunk;
        }
        const uInt out_chunk = static_cast<uInt>(std::min<uint64_t>(out.size() - out_done, 1u << 30));
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + out_done);
        zs.avail_out = out_chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        out_done += out_chunk - zs.avail_out;
        // Input used up, or output full, before the stream's end: zlib
        // answers Z_BUF_ERROR (no progress possible), which ends the loop.
    }
    const std::string message = zs.msg ? zs.msg : "";
    inflateEnd(&zs);
    if (rc != Z_STREAM_END)
        fail(path_, "member '" + m.name + "' does not inflate: " +
                        (message.empty() ? "the deflate stream is truncated or longer than its stated size"
                                         : "zlib: " + message));
    if (out_done != m.size)
        fail(path_, "corrupt zip: member '" + m.name + "' inflates to " + std::to_string(out_done) +
                        " bytes, its entry says " + std::to_string(m.size));
    return out;
}

} // namespace spl::io
