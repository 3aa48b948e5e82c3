// Image files (lib.torch.vision.io): PNG through libpng and JPEG through libjpeg(-turbo), decoded
// as torchvision.io.decode_image does: a uint8 tensor C x H x W (uint16 for a 16-bit PNG; int32
// on LibTorch 1.13, which has no uint16), with torchvision's ImageReadMode conversions, made by
// the same library calls torchvision makes (libpng's transforms, libjpeg's output colour space).
//
// Both libraries report errors by calling a function that must not return: libpng's error_fn
// and libjpeg's error_exit. Each here records the library's message and longjmps back to a
// setjmp in a small C-style step (png_step_* / jpeg_step_*) whose frame holds no C++ object,
// so no destructor is ever skipped; the C++ code around the steps turns the message into an
// spl::SplError naming the file. libjpeg's warnings about corrupt data (a truncated file among
// them) are errors too, as torchvision's: its "Image is incomplete or truncated".
#include "extras/io/io_support.h"
#include "core/libtorch_compat.h"

#include <ATen/Version.h>
#include <ATen/ops/empty.h>

#include <cctype>
#include <csetjmp>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>

#include <jpeglib.h>
// after jpeglib.h, which it needs: the message codes (JWRN_JPEG_EOF)
#include <jerror.h>
#include <png.h>

namespace spl_image {

using spl::io::fail;

// ---- PNG -------------------------------------------------------------------------------------

struct PngState {
    const unsigned char* data;
    size_t size;
    size_t pos;
    char message[256];
    std::jmp_buf jump;
};

extern "C" void png_read_bytes(png_structp png, png_bytep out, png_size_t n) {
    auto* s = static_cast<PngState*>(png_get_io_ptr(png));
    if (s->size - s->pos < n) png_error(png, "Out of bound read in decode_png. Probably, the input image is corrupted");
    std::memcpy(out, s->data + s->pos, n);
    s->pos += n;
}

extern "C" void png_on_error(png_structp png, png_const_charp message) {
    auto* s = static_cast<PngState*>(png_get_error_ptr(png));
    std::snprintf(s->message, sizeof s->message, "%s", message);
    std::longjmp(s->jump, 1);
}

extern "C" void png_on_warning(png_structp, png_const_charp) {}

struct PngInfo {
    png_uint_32 width, height;
    int bit_depth, color_type, interlace, channels, passes;
};

// The header and torchvision's transforms for `mode`; false on a libpng error.
bool png_step_header(png_structp png, png_infop info, PngState* s, int mode, PngInfo* out) {
    if (setjmp(s->jump)) return false;
    png_read_info(png, info);
    png_get_IHDR(png, info, &out->width, &out->height, &out->bit_depth, &out->color_type, &out->interlace, nullptr,
                 nullptr);
    out->channels = png_get_channels(png, info);
    if (out->color_type == PNG_COLOR_TYPE_GRAY && out->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    // Palette indices of 1, 2 or 4 bits, one a byte (torchvision reads them packed, into a row
    // buffer they fill only part of).
    if (out->color_type == PNG_COLOR_TYPE_PALETTE && out->bit_depth < 8) png_set_packing(png);
    out->passes = out->interlace == PNG_INTERLACE_ADAM7 ? png_set_interlace_handling(png) : 1;
    if (mode != 0) {
        const bool is_palette = (out->color_type & PNG_COLOR_MASK_PALETTE) != 0;
        const bool has_color = (out->color_type & PNG_COLOR_MASK_COLOR) != 0;
        bool has_alpha = (out->color_type & PNG_COLOR_MASK_ALPHA) != 0;
        // A palette expands to RGB, with alpha only where the file has a tRNS chunk. torchvision
        // assumes alpha always, so that it adds none and returns uninitialised memory as the
        // alpha of a palette image without tRNS; here it gets an opaque one.
        const bool palette_alpha = is_palette && png_get_valid(png, info, PNG_INFO_tRNS) != 0;
        const png_uint_32 opaque = (1u << out->bit_depth) - 1;
        switch (mode) {
        case 1: // GRAY
            if (out->color_type != PNG_COLOR_TYPE_GRAY) {
                if (is_palette) {
                    png_set_palette_to_rgb(png);
                    has_alpha = palette_alpha;
                }
                if (has_alpha) png_set_strip_alpha(png);
                if (has_color) png_set_rgb_to_gray(png, 1, 0.2989, 0.587);
                out->channels = 1;
            }
            break;
        case 2: // GRAY_ALPHA
            if (out->color_type != PNG_COLOR_TYPE_GRAY_ALPHA) {
                if (is_palette) {
                    png_set_palette_to_rgb(png);
                    has_alpha = palette_alpha;
                }
                if (!has_alpha) png_set_add_alpha(png, opaque, PNG_FILLER_AFTER);
                if (has_color) png_set_rgb_to_gray(png, 1, 0.2989, 0.587);
                out->channels = 2;
            }
            break;
        case 3: // RGB
            if (out->color_type != PNG_COLOR_TYPE_RGB) {
                if (is_palette) {
                    png_set_palette_to_rgb(png);
                    has_alpha = palette_alpha;
                } else if (!has_color) {
                    png_set_gray_to_rgb(png);
                }
                if (has_alpha) png_set_strip_alpha(png);
                out->channels = 3;
            }
            break;
        default: // RGB_ALPHA
            if (out->color_type != PNG_COLOR_TYPE_RGB_ALPHA) {
                if (is_palette) {
                    png_set_palette_to_rgb(png);
                    has_alpha = palette_alpha;
                } else if (!has_color) {
                    png_set_gray_to_rgb(png);
                }
                if (!has_alpha) png_set_add_alpha(png, opaque, PNG_FILLER_AFTER);
                out->channels = 4;
            }
            break;
        }
        png_read_update_info(png, info);
    }
    if (out->bit_depth == 16) png_set_swap(png); // native (little-endian) uint16
    return true;
}

bool png_step_rows(png_structp png, PngState* s, const PngInfo* in, unsigned char* dst, size_t row_bytes) {
    if (setjmp(s->jump)) return false;
    for (int pass = 0; pass < in->passes; ++pass) {
        unsigned char* row = dst;
        for (png_uint_32 y = 0; y < in->height; ++y) {
            png_read_row(png, row, nullptr);
            row += row_bytes;
        }
    }
    return true;
}

struct PngHandles {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~PngHandles() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

at::Tensor decode_png(const unsigned char* data, size_t size, int mode, const std::string& what) {
    PngState s{data, size, 0, {0}, {}};
    PngHandles h;
    h.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, png_on_error, png_on_warning);
    if (!h.png) fail(what, "libpng could not start (png_create_read_struct)");
    h.info = png_create_info_struct(h.png);
    if (!h.info) fail(what, "libpng could not start (png_create_info_struct)");
    png_set_read_fn(h.png, &s, png_read_bytes);
    PngInfo in{};
    if (!png_step_header(h.png, h.info, &s, mode, &in)) fail(what, s.message);
    const bool wide = in.bit_depth == 16;
#if SPL_TORCH_HAS_UNSIGNED
    const c10::ScalarType type = wide ? c10::kUInt16 : c10::kByte;
#else
    const c10::ScalarType type = wide ? c10::kShort : c10::kByte;
#endif
    const int64_t h64 = in.height, w64 = in.width, c64 = in.channels;
    spl::io::checked_numel({h64, w64, c64}, what, "the image");
    at::Tensor t = at::empty({h64, w64, c64}, at::TensorOptions().dtype(type));
    const size_t row_bytes = static_cast<size_t>(w64 * c64) * (wide ? 2 : 1);
    if (!png_step_rows(h.png, &s, &in, static_cast<unsigned char*>(t.data_ptr()), row_bytes)) fail(what, s.message);
#if !SPL_TORCH_HAS_UNSIGNED
    if (wide) t = t.to(c10::kInt).bitwise_and(0xFFFF);
#endif
    return t.permute({2, 0, 1});
}

// ---- JPEG ------------------------------------------------------------------------------------

struct JpegError {
    jpeg_error_mgr mgr;
    char message[JMSG_LENGTH_MAX + 64];
    std::jmp_buf jump;
};

extern "C" void jpeg_on_error(j_common_ptr cinfo) {
    auto* e = reinterpret_cast<JpegError*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, e->message);
    std::longjmp(e->jump, 1);
}

// Warnings (level -1) are corrupt data: an error, as torchvision makes them.
extern "C" void jpeg_on_message(j_common_ptr cinfo, int level) {
    if (level != -1) return;
    auto* e = reinterpret_cast<JpegError*>(cinfo->err);
    if (cinfo->err->msg_code == JWRN_JPEG_EOF)
        std::snprintf(e->message, sizeof e->message, "Image is incomplete or truncated");
    else
        (*cinfo->err->format_message)(cinfo, e->message);
    std::longjmp(e->jump, 1);
}

struct JpegInfo {
    int width, height, channels;
    bool cmyk;
};

bool jpeg_step_header(jpeg_decompress_struct* cinfo, JpegError* e, const unsigned char* data, size_t size, int mode,
                      JpegInfo* out) {
    if (setjmp(e->jump)) return false;
    jpeg_mem_src(cinfo, const_cast<unsigned char*>(data), static_cast<unsigned long>(size));
    jpeg_read_header(cinfo, TRUE);
    out->channels = cinfo->num_components;
    out->cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    if (mode == 1 || mode == 3) {
        if (!out->cmyk) cinfo->out_color_space = mode == 1 ? JCS_GRAYSCALE : JCS_RGB;
        out->channels = mode == 1 ? 1 : 3;
        jpeg_calc_output_dimensions(cinfo);
    }
    jpeg_start_decompress(cinfo);
    out->width = static_cast<int>(cinfo->output_width);
    out->height = static_cast<int>(cinfo->output_height);
    return true;
}

bool jpeg_step_rows(jpeg_decompress_struct* cinfo, JpegError* e, unsigned char* dst, size_t row_bytes) {
    if (setjmp(e->jump)) return false;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = dst + static_cast<size_t>(cinfo->output_scanline) * row_bytes;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return true;
}

struct JpegHandle {
    jpeg_decompress_struct cinfo;
    ~JpegHandle() { jpeg_destroy_decompress(&cinfo); }
};

at::Tensor decode_jpeg(const unsigned char* data, size_t size, int mode, const std::string& what) {
    if (mode == 2 || mode == 4) fail(what, "The provided mode is not supported for JPEG files");
    JpegError e{};
    JpegHandle h{};
    h.cinfo.err = jpeg_std_error(&e.mgr);
    e.mgr.error_exit = jpeg_on_error;
    e.mgr.emit_message = jpeg_on_message;
    jpeg_create_decompress(&h.cinfo);
    JpegInfo in{};
    if (!jpeg_step_header(&h.cinfo, &e, data, size, mode, &in)) fail(what, e.message);
    if (in.cmyk && mode != 0)
        fail(what, "a CMYK JPEG converted to GRAY or RGB: lib.torch reads CMYK JPEGs only with mode UNCHANGED");
    const int64_t h64 = in.height, w64 = in.width, c64 = in.channels;
    spl::io::checked_numel({h64, w64, c64}, what, "the image");
    at::Tensor t = at::empty({h64, w64, c64}, at::TensorOptions().dtype(c10::kByte));
    if (!jpeg_step_rows(&h.cinfo, &e, static_cast<unsigned char*>(t.data_ptr()), static_cast<size_t>(w64 * c64)))
        fail(what, e.message);
    return t.permute({2, 0, 1});
}

// ---- either ----------------------------------------------------------------------------------

int mode_code(const char* mode) {
    const std::string m = mode ? mode : "";
    if (m == "UNCHANGED") return 0;
    if (m == "GRAY") return 1;
    if (m == "GRAY_ALPHA") return 2;
    if (m == "RGB") return 3;
    if (m == "RGB_ALPHA") return 4;
    throw spl::SplError("unknown ImageReadMode '" + m + "' (UNCHANGED, GRAY, GRAY_ALPHA, RGB or RGB_ALPHA)");
}

// format: "image" (either, by signature), "png" or "jpeg".
at::Tensor decode(const unsigned char* b, size_t n, const std::string& format, int mode, const std::string& what) {
    const bool is_png = n >= 8 && std::memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0;
    const bool is_jpeg = n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF;
    if (format == "png") return decode_png(b, n, mode, what);
    if (format == "jpeg") return decode_jpeg(b, n, mode, what);
    if (is_png) return decode_png(b, n, mode, what);
    if (is_jpeg) return decode_jpeg(b, n, mode, what);
    fail(what, "Unsupported image file. Only jpeg and png are currently supported (lib.torch decodes no webp, gif, "
               "avif or heic)" +
                   spl::io::looks_like(b, n));
}

} // namespace spl_image

extern "C" {

// torchvision.io.read_image(path, mode): the file's PNG or JPEG image.
SPL_TORCH_EXPORT int64_t rt_torch_read_image(const char* path, const char* mode) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const int m = spl_image::mode_code(mode);
        const std::string bytes = spl::io::InputFile(file).read_all();
        return spl::new_handle(
            spl_image::decode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "image", m, file));
    });
}

// torchvision.io.read_file(path): the file's bytes, a 1-d uint8 tensor.
SPL_TORCH_EXPORT int64_t rt_torch_read_file(const char* path) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const std::string bytes = spl::io::InputFile(file).read_all();
        at::Tensor t = at::empty({static_cast<int64_t>(bytes.size())}, at::TensorOptions().dtype(c10::kByte));
        if (!bytes.empty()) std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
        return spl::new_handle(std::move(t));
    });
}

// torchvision.io.decode_image / decode_png / decode_jpeg (format "image", "png", "jpeg") on a
// 1-D uint8 tensor of a file's bytes.
SPL_TORCH_EXPORT int64_t rt_torch_decode_image(int64_t data, const char* mode, const char* format) {
    return spl::guarded<int64_t>(__func__, [&] {
        const at::Tensor& t = spl::tensor(data, "data");
        const std::string fmt = format ? format : "";
        const std::string name = fmt == "image" ? "decode_image" : "decode_" + fmt;
        if (t.scalar_type() != c10::kByte)
            throw spl::SplError(name + ": Expected a torch.uint8 tensor, got torch." +
                                std::string(c10::toString(t.scalar_type())));
        if (t.dim() != 1) throw spl::SplError(name + ": Expected a one dimensional tensor");
        if (t.numel() == 0) throw spl::SplError(name + ": Expected a non empty tensor");
        const int m = spl_image::mode_code(mode);
        const at::Tensor c = t.to(c10::kCPU).contiguous();
        return spl::new_handle(spl_image::decode(static_cast<const unsigned char*>(c.data_ptr()),
                                                 static_cast<size_t>(c.numel()), fmt, m, "<" + name + " data>"));
    });
}

// torch.backends.cpu.get_cpu_capability(): which of ATen's CPU kernels run ("AVX2", "AVX512", "DEFAULT", ...);
// torchvision's Resize chooses its uint8 path by it.
SPL_TORCH_EXPORT const char* rt_torch_cpu_capability() {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
#if SPL_TORCH_AT_LEAST(2, 1)
        return spl::ResultArena::current().text(at::get_cpu_capability());
#else // 1.13 exports no get_cpu_capability: ATen's own choice, from its variable or the CPU
        const char* forced = std::getenv("ATEN_CPU_CAPABILITY");
        if (forced && *forced) {
            std::string f = forced;
            for (char& ch : f) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            return spl::ResultArena::current().text(f);
        }
#if defined(__x86_64__)
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
            return spl::ResultArena::current().text("AVX512");
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            return spl::ResultArena::current().text("AVX2");
#endif
        return spl::ResultArena::current().text("DEFAULT");
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_read_image, "path", "mode")
SPL_EXTRA(rt_torch_read_file, "path")
SPL_EXTRA(rt_torch_decode_image, "data", "mode", "format")
SPL_EXTRA(rt_torch_cpu_capability)
