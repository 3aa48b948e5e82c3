// The file-format extras (runtime_plugin/extras/io/) on bad input: every
// prefix of every reference file in tests/data/files/ (make_io_fixtures.py) and
// every single-byte flip of it is either read or refused with an error naming
// the file, never a crash, a hang or a leak (run under the sanitizers too).
// Also round trips of every safetensors dtype against ATen's own tensors, the
// atomic writer's temporary files, and argument errors.
#include "test_support.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace plugin_test;

namespace {

std::string files_dir() {
    const char* dir = std::getenv("SPL_TORCH_IO_FILES");
    REQUIRE_MESSAGE(dir != nullptr, "SPL_TORCH_IO_FILES is not set (meson test sets it)");
    return dir;
}

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            if (e->d_name[0] != '.') names.emplace_back(e->d_name);
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes, size_t n) {
    // Removed first, not truncated: ext4 flushes a truncated-and-rewritten file on
    // close (auto_da_alloc), milliseconds each, and these tests write thousands.
    std::remove(path.c_str());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(n));
}

// A scratch directory, removed with its files.
struct TempDir {
    std::string path;
    TempDir() {
        char name[] = "/tmp/spl-test-io-XXXXXX";
        REQUIRE(mkdtemp(name) != nullptr);
        path = name;
    }
    ~TempDir() {
        for (const std::string& f : list_dir(path)) std::remove((path + "/" + f).c_str());
        rmdir(path.c_str());
    }
};

// Which reader takes a reference file, by its name; "" for none.
std::string reader_of(const std::string& name) {
    const auto ends = [&](const std::string& s) {
        return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    if (ends(".safetensors")) return "rt_torch_safetensors_load";
    if (ends(".pt")) return "rt_torch_pt_load";
    if (ends(".npy")) return "rt_torch_load_npy";
    if (ends(".npz")) return "rt_torch_load_npz";
    if (name.find("idx") != std::string::npos) return "rt_torch_read_idx";
    if (ends(".csv") || ends(".csv.gz") || ends(".txt")) return "rt_torch_read_csv";
    return "";
}

Outcome load(const std::string& reader, const std::string& path) {
    if (reader == "rt_torch_read_csv") return plugin().try_runtime(reader, {path, ",", 0, "float64"});
    if (reader == "rt_torch_pt_load") return plugin().try_runtime(reader, {path, "cpu"});
    return plugin().try_runtime(reader, {path});
}

// Frees what a successful load returned (a handle, ([names], [handles]), or
// rt_torch_pt_load's (ops, texts, floats, handles)).
void free_result(const Outcome& o) {
    if (!o.ok) return;
    if (o.value.tag == SPL_I64) plugin().free(o.value.i);
    if (o.value.tag == SPL_ARRAY && o.value.items.size() == 2)
        for (int64_t h : o.value.items[1].as_i64_list()) plugin().free(h);
    if (o.value.tag == SPL_ARRAY && o.value.items.size() == 4)
        for (int64_t h : o.value.items[3].as_i64_list()) plugin().free(h);
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "every prefix of every reference file is refused naming the file, or read") {
    const TempDir tmp;
    const std::string cut = tmp.path + "/cut";
    size_t files = 0, refused = 0;
    for (const std::string& name : list_dir(files_dir())) {
        const std::string reader = reader_of(name);
        if (reader.empty()) continue;
        const std::string bytes = read_bytes(files_dir() + "/" + name);
        ++files;
        // A strict prefix of these formats is always incomplete: it must be refused.
        // (npy_trailing and idx_trailing are a valid file with bytes appended.)
        const bool exact = reader != "rt_torch_read_csv" && name.find("trailing") == std::string::npos;
        for (size_t n = 0; n < bytes.size(); ++n) {
            write_bytes(cut, bytes, n);
            const Outcome o = load(reader, cut);
            if (!o.ok) {
                ++refused;
                CHECK_MESSAGE(o.error.find("'" + cut + "'") != std::string::npos,
                              name << " cut at " << n << ": " << o.error);
            } else {
                CHECK_MESSAGE(!exact, name << " cut at " << n << " of " << bytes.size() << " was read");
            }
            free_result(o);
        }
    }
    CHECK(files > 40);
    MESSAGE(files << " files, " << refused << " prefixes refused");
}

TEST_CASE_FIXTURE(LeakChecked,
                  "every single flipped byte of every reference file is refused naming the file, or read") {
    const TempDir tmp;
    const std::string flipped = tmp.path + "/flipped";
    size_t accepted = 0, refused = 0;
    for (const std::string& name : list_dir(files_dir())) {
        const std::string reader = reader_of(name);
        if (reader.empty()) continue;
        std::string bytes = read_bytes(files_dir() + "/" + name);
        for (size_t i = 0; i < bytes.size(); ++i) {
            bytes[i] = static_cast<char>(bytes[i] ^ 0xFF);
            write_bytes(flipped, bytes, bytes.size());
            bytes[i] = static_cast<char>(bytes[i] ^ 0xFF);
            const Outcome o = load(reader, flipped);
            if (o.ok) {
                ++accepted; // a flipped value byte is still a valid file
            } else {
                ++refused;
                CHECK_MESSAGE(o.error.find("'" + flipped + "'") != std::string::npos,
                              name << " flipped at " << i << ": " << o.error);
            }
            free_result(o);
        }
    }
    MESSAGE(accepted << " flips read, " << refused << " refused");
    CHECK(refused > 0);
}

TEST_CASE_FIXTURE(LeakChecked, "a flipped byte anywhere in an .npz member's data fails its CRC-32 check") {
    const TempDir tmp;
    const std::string path = tmp.path + "/x.npz";
    std::string bytes = read_bytes(files_dir() + "/npz_stored.npz");
    // x.npy's data: the last 16 bytes of its .npy, which holds 4 float32 values.
    const std::string marker("\x00\x00\xc0\x3f", 4); // 1.5f, x[0][0]
    const size_t at = bytes.find(marker);
    REQUIRE(at != std::string::npos);
    for (size_t i = at; i < at + 16; ++i) {
        bytes[i] = static_cast<char>(bytes[i] ^ 0x01);
        write_bytes(path, bytes, bytes.size());
        bytes[i] = static_cast<char>(bytes[i] ^ 0x01);
        expect_error(plugin().try_runtime("rt_torch_load_npz", {path}),
                     {path, "member 'x.npy' fails its CRC-32 check"});
    }
}

TEST_CASE_FIXTURE(LeakChecked, "safetensors round trip of every dtype against ATen's tensors") {
    const TempDir tmp;
    const std::string path = tmp.path + "/all.safetensors";
    std::vector<Arg> names, handles;
    std::vector<at::Tensor> refs;
    const std::vector<c10::ScalarType> types{at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kLong,
                                             at::kInt,   at::kShort,  at::kChar, at::kByte,     at::kBool};
    for (size_t i = 0; i < types.size(); ++i) {
        const at::Tensor ref = (sample({3, 4}, i + 1) * 10).to(types[i]);
        const Input in = upload(ref);
        // Saved through a non-contiguous view (the transpose): written contiguous.
        const int64_t view = op_handle("rt_torch_t", {in.h});
        names.emplace_back(dtype_name(types[i]));
        handles.emplace_back(view);
        refs.push_back(ref.t().contiguous());
    }
    plugin().runtime("rt_torch_safetensors_save", {path, list(names), list(handles), list({"k", "v"})});
    const Value loaded = plugin().runtime("rt_torch_safetensors_load", {path});
    const auto& got_names = loaded.as_array()[0].as_array();
    const auto got = loaded.as_array()[1].as_i64_list();
    REQUIRE(got.size() == refs.size());
    for (size_t i = 0; i < refs.size(); ++i) {
        CHECK(got_names[i].as_text() == dtype_name(types[i]));
        expect_same(got[i], refs[i]);
    }
    CHECK(plugin().runtime("rt_torch_safetensors_metadata", {path}).as_array().size() == 2);
    // Nothing but the file is left in the directory: the temporary file was renamed.
    CHECK(list_dir(tmp.path) == std::vector<std::string>{"all.safetensors"});
}

TEST_CASE_FIXTURE(LeakChecked, "a refused save leaves the old file and no temporary file") {
    const TempDir tmp;
    const std::string path = tmp.path + "/keep.safetensors";
    const Input a = upload(at::arange(4, at::kFloat));
    plugin().runtime("rt_torch_safetensors_save", {path, list({"a"}), list({a.h}), list({})});
    const std::string before = read_bytes(path);
    const Input pairs = upload(at::zeros({2, 2}, at::kDouble));
    const int64_t c = op_handle("rt_torch_view_as_complex", {pairs.h}); // complex128: safetensors has no C128
    expect_error(plugin().try_runtime("rt_torch_safetensors_save", {path, list({"c"}), list({c}), list({})}),
                 {"rt_torch_safetensors_save", "tensor 'c'", "complex128"});
    expect_error(
        plugin().try_runtime("rt_torch_safetensors_save", {path, list({"a", "a"}), list({a.h, a.h}), list({})}),
        {"'a' is given twice"});
    expect_error(plugin().try_runtime("rt_torch_safetensors_save", {path, list({"a"}), list({a.h, a.h}), list({})}),
                 {"1 names, 2 tensors"});
    expect_error(plugin().try_runtime("rt_torch_safetensors_save", {path, list({"a"}), list({a.h}), list({"k"})}),
                 {"metadata", "pairs"});
    expect_error(plugin().try_runtime("rt_torch_safetensors_save", {path, list({nil}), list({a.h}), list({})}),
                 {"names"});
    // A save over a directory is refused before anything is written.
    expect_error(plugin().try_runtime("rt_torch_save_npy", {tmp.path, a.h}), {tmp.path, "is a directory"});
    CHECK(read_bytes(path) == before);
    CHECK(list_dir(tmp.path) == std::vector<std::string>{"keep.safetensors"});
}

// (Complex dtypes: tests/data/io_spec.spl; upload() here has no complex path.)
TEST_CASE_FIXTURE(LeakChecked, ".npy round trip keeps dtype, shape and values; Fortran order reads as C order") {
    const TempDir tmp;
    const std::string path = tmp.path + "/x.npy";
    for (c10::ScalarType type :
         {at::kFloat, at::kDouble, at::kHalf, at::kLong, at::kInt, at::kShort, at::kChar, at::kByte, at::kBool}) {
        const at::Tensor ref = (sample({2, 3, 2}, 7) * 10).to(type);
        const Input in = upload(ref);
        plugin().runtime("rt_torch_save_npy", {path, in.h});
        expect_same(plugin().runtime("rt_torch_load_npy", {path}).as_i64(), ref);
    }
    const int64_t f = plugin().runtime("rt_torch_load_npy", {files_dir() + "/npy_fortran3.npy"}).as_i64();
    expect_same(f, at::arange(24, at::kDouble).reshape({2, 3, 4}));
    if (has_op("rt_torch_is_contiguous")) CHECK(op("rt_torch_is_contiguous", {f}).as_bool());
}

TEST_CASE_FIXTURE(LeakChecked, "a safetensors header nested a million levels deep is refused, not a stack overflow") {
    const TempDir tmp;
    const std::string path = tmp.path + "/deep.safetensors";
    const size_t depth = 1000000;
    for (const std::string& header :
         {std::string(depth, '[') + std::string(depth, ']'),
          "{\"a\":{\"dtype\":\"F32\",\"shape\":" + std::string(depth, '[') + std::string(depth, ']') +
              ",\"data_offsets\":[0,0]}}",
          "{\"__metadata__\":{\"k\":" + std::string(depth, '[') + std::string(depth, ']') + "}}"}) {
        std::string bytes(8, '\0');
        const uint64_t n = header.size();
        for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((n >> (8 * i)) & 0xff);
        bytes += header;
        write_bytes(path, bytes, bytes.size());
        expect_error(plugin().try_runtime("rt_torch_safetensors_load", {path}),
                     {path, "levels deep (a safetensors header nests 3)"});
    }
}

namespace {

// A safetensors file of `n` one-float tensors t0, t1, ... and `n` metadata entries
// k0: v0, k1: v1, ... (in the header: the metadata first, the tensors in reverse).
std::string many_entries_file(size_t n) {
    std::string header = "{\"__metadata__\":{";
    for (size_t i = 0; i < n; ++i)
        header += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v" + std::to_string(i) + "\"";
    header += "}";
    for (size_t i = n; i-- > 0;)
        header += ",\"t" + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[" +
                  std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
    header += "}";
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return bytes + header + std::string(4 * n, '\0');
}

// The fastest of three runs of `run`, in seconds: the least disturbed by other work on the machine.
template <class F>
double best_of_three(F&& run) {
    double best = 1e30;
    for (int i = 0; i < 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace

// A header's entries are found by name (its objects are maps), not by a search on each
// insert: ten times the entries costs about ten times the time. (Ratios, not absolute
// times, so that a slow or busy machine passes; quadratic parsing made the ratio 100.)
TEST_CASE_FIXTURE(LeakChecked, "safetensors load, metadata and save take time linear in the header's entries") {
    const TempDir tmp;
    const size_t sizes[2] = {5000, 50000};
    double load_s[2], metadata_s[2], save_s[2];
    const Input one = upload(at::ones({1}, at::kFloat));
    for (int k = 0; k < 2; ++k) {
        const size_t n = sizes[k];
        const std::string path = tmp.path + "/many.safetensors";
        const std::string bytes = many_entries_file(n);
        write_bytes(path, bytes, bytes.size());
        load_s[k] = best_of_three([&] {
            const Outcome o = plugin().try_runtime("rt_torch_safetensors_load", {path});
            REQUIRE_MESSAGE(o.ok, o.error);
            const auto& names = o.value.as_array()[0].as_array();
            REQUIRE(names.size() == n); // in data order: t0, t1, ...
            CHECK(names.front().as_text() == "t0");
            CHECK(names.back().as_text() == "t" + std::to_string(n - 1));
            free_result(o);
        });
        metadata_s[k] = best_of_three([&] {
            const Value meta = plugin().runtime("rt_torch_safetensors_metadata", {path});
            const auto& flat = meta.as_array();
            REQUIRE(flat.size() == 2 * n); // in the file's order: k0, v0, k1, v1, ...
            CHECK(flat[2].as_text() == "k1");
            CHECK(flat[2 * n - 1].as_text() == "v" + std::to_string(n - 1));
        });
        std::vector<Arg> names, handles, metadata;
        for (size_t i = 0; i < n; ++i) {
            names.emplace_back("t" + std::to_string(i));
            handles.emplace_back(one.h);
            metadata.emplace_back("k" + std::to_string(i));
            metadata.emplace_back("v");
        }
        save_s[k] = best_of_three([&] {
            plugin().runtime("rt_torch_safetensors_save",
                             {tmp.path + "/saved.safetensors", list(names), list(handles), list(metadata)});
        });
    }
    MESSAGE("load ", load_s[0], " s, ", load_s[1], " s; metadata ", metadata_s[0], " s, ", metadata_s[1], " s; save ",
            save_s[0], " s, ", save_s[1], " s");
    CHECK(load_s[1] < 30 * load_s[0]);
    CHECK(metadata_s[1] < 30 * metadata_s[0]);
    CHECK(save_s[1] < 30 * save_s[0]);
}

TEST_CASE_FIXTURE(LeakChecked, "a key given twice in a safetensors header keeps its first place and its last value") {
    const TempDir tmp;
    const std::string path = tmp.path + "/twice.safetensors";
    const std::string header = "{\"__metadata__\":{\"k\":\"1\",\"j\":\"2\",\"k\":\"3\"},"
                               "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                               "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]},"
                               "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}";
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    const float data[4] = {1, 2, 3, 4};
    bytes += header + std::string(reinterpret_cast<const char*>(data), sizeof data);
    write_bytes(path, bytes, bytes.size());
    const Value meta = plugin().runtime("rt_torch_safetensors_metadata", {path});
    std::vector<std::string> flat;
    for (const Value& v : meta.as_array()) flat.push_back(v.as_text());
    CHECK(flat == std::vector<std::string>{"k", "3", "j", "2"});
    const Outcome o = plugin().try_runtime("rt_torch_safetensors_load", {path});
    REQUIRE_MESSAGE(o.ok, o.error);
    const auto& names = o.value.as_array()[0].as_array();
    REQUIRE(names.size() == 2); // in data order: b [4, 8), then a [8, 16)
    CHECK(names[0].as_text() == "b");
    CHECK(names[1].as_text() == "a");
    CHECK(at::equal(to_aten(o.value.as_array()[1].as_i64_list()[1]), at::tensor({3.0f, 4.0f})));
    free_result(o);
}

namespace {

// A torch.save-like archive whose data.pkl is `pickle` (no storages).
void write_pt(const std::string& path, const std::string& pickle) {
    std::string out;
    caffe2::serialize::PyTorchStreamWriter writer([&out](const void* data, size_t n) -> size_t {
        out.append(static_cast<const char*>(data), n);
        return n;
    });
    writer.writeRecord("data.pkl", pickle.data(), pickle.size());
    writer.writeEndOfFile();
    write_bytes(path, out, out.size());
}

} // namespace

TEST_CASE_FIXTURE(LeakChecked, "a pickle nesting lists a million deep, or a list holding itself, is refused") {
    const TempDir tmp;
    const std::string path = tmp.path + "/deep.pt";
    const size_t n = 1'000'000;
    write_pt(path, "\x80\x02" + std::string(n, ']') + std::string(n - 1, 'a') + ".");
    expect_error(plugin().try_runtime("rt_torch_pt_load", {path, "cpu"}), {path, "nests containers more than"});
    write_pt(path, std::string("\x80\x02]q\x00"
                               "h\x00"
                               "a.",
                               9)); // a list appended to itself
    expect_error(plugin().try_runtime("rt_torch_pt_load", {path, "cpu"}), {path, "nests containers more than"});
    // A DICT of a million (key, value) pairs that all repeat one key: one entry.
    std::string pickle = "\x80\x02}(";
    for (int i = 0; i < 1000; ++i) pickle += "K\x01N";
    write_pt(path, pickle + "u.");
    const Value v = plugin().runtime("rt_torch_pt_load", {path, "cpu"});
    CHECK(v.as_array()[0].as_i64_list() == std::vector<int64_t>{9, 1, 3, 1, 0});
}

TEST_CASE_FIXTURE(LeakChecked, "torch.save round trip of every dtype and of views, through the flat program") {
    const TempDir tmp;
    const std::string path = tmp.path + "/all.pt";
    std::vector<int64_t> ops{7, 0}, handles; // LIST n, then a TENSOR per dtype
    std::vector<at::Tensor> refs;
    const std::vector<c10::ScalarType> types{at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kLong,
                                             at::kInt,   at::kShort,  at::kChar, at::kByte,     at::kBool};
    for (size_t i = 0; i < types.size(); ++i) {
        const at::Tensor ref = (sample({3, 4}, i + 1) * 10).to(types[i]);
        const Input in = upload(ref);
        ops.push_back(6);
        handles.push_back(op_handle("rt_torch_t", {in.h})); // a view: saved with its strides
        refs.push_back(ref.t());
    }
    ops[1] = static_cast<int64_t>(types.size());
    plugin().runtime("rt_torch_pt_save", {path, ints(ops), list({}), floats({}), ints(handles)});
    const Value loaded = plugin().runtime("rt_torch_pt_load", {path, "cpu"});
    const auto got = loaded.as_array()[3].as_i64_list();
    REQUIRE(got.size() == refs.size());
    for (size_t i = 0; i < refs.size(); ++i) {
        expect_same(got[i], refs[i]);
        plugin().free(got[i]);
    }
    for (const int64_t h : handles) plugin().free(h);
    CHECK(list_dir(tmp.path) == std::vector<std::string>{"all.pt"});
    // A malformed program is an error, not a crash.
    expect_error(plugin().try_runtime("rt_torch_pt_save", {path, ints({7, 2, 0}), list({}), floats({}), ints({})}),
                 {"malformed object program"});
}
