// Numeric CSV files as a 2-d tensor (rows x columns), as np.loadtxt reads them.
//
// The file is read through zlib (gzopen/gzread), so a gzip-compressed file
// (data.csv.gz) is decompressed and a plain one read as it is. The first
// `skip_header` lines are skipped; blank lines are skipped; "\r\n" endings are
// accepted. Fields are split on `delimiter` (one character; " " splits on runs
// of spaces and tabs), trimmed of spaces and tabs, and may be enclosed in
// double quotes. Every row must have as many fields as the first. Numbers are
// parsed without the locale (std::from_chars): floats for the floating
// dtypes ("nan", "inf" included), integers (range-checked) for the integer
// ones, true/false/1/0 for bool. A malformed row is an error naming the file,
// the line and the problem. No data rows gives a [0, 0] tensor.
#include "extras/io/io_support.h"

#include <ATen/ops/empty.h>

#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>

namespace {

using spl::io::fail;

enum class ColumnKind { Floating, Integer, Boolean };

struct Target {
    c10::ScalarType type;
    ColumnKind kind;
    int64_t min, max; // for integers
};

Target target_of(const char* dtype) {
    const std::string_view name = spl::required_text(dtype, "dtype");
    const c10::ScalarType type = name.empty() ? c10::kFloat : spl::parse_dtype(name);
    if (c10::isFloatingType(type)) return {type, ColumnKind::Floating, 0, 0};
    if (type == c10::kBool) return {type, ColumnKind::Boolean, 0, 1};
    struct Range {
        const char* name;
        int64_t min, max;
    };
    static const Range ranges[] = {
        {"uint8", 0, 255},
        {"int8", -128, 127},
        {"int16", -32768, 32767},
        {"int32", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
        {"int64", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()},
        {"uint16", 0, 65535},
        {"uint32", 0, 4294967295LL},
        {"uint64", 0, std::numeric_limits<int64_t>::max()},
    };
    for (const Range& r : ranges)
        if (std::strcmp(spl::dtype_name(type), r.name) == 0) return {type, ColumnKind::Integer, r.min, r.max};
    throw spl::SplError(std::string("dtype: a CSV file reads as a floating, integer or bool dtype, not ") +
                        spl::dtype_name(type));
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

std::vector<std::string_view> split(std::string_view line, char delimiter) {
    std::vector<std::string_view> fields;
    if (delimiter == ' ') {
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
            if (i == line.size()) break;
            const size_t start = i;
            while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
            fields.push_back(trim(line.substr(start, i - start)));
        }
        return fields;
    }
    size_t start = 0;
    for (;;) {
        const size_t end = line.find(delimiter, start);
        fields.push_back(
            trim(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return fields;
}

bool blank(std::string_view line) {
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '\r') return false;
    return true;
}

} // namespace

extern "C" {

SPL_TORCH_EXPORT int64_t rt_torch_read_csv(const char* path, const char* delimiter, int64_t skip_header,
                                           const char* dtype) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const std::string_view delim = spl::required_text(delimiter, "delimiter");
        if (delim.size() != 1 || delim[0] == '"' || delim[0] == '\n' || delim[0] == '\r')
            throw spl::SplError(
                "delimiter: one character is required (such as \",\", \";\", \"\\t\" or \" \"), got \"" +
                std::string(delim) + "\"");
        if (skip_header < 0) throw spl::SplError("skip_header: a number of lines, 0 or more, is required");
        const Target target = target_of(dtype);
        const std::string text = spl::io::read_maybe_gzip(file);
        if (std::memchr(text.data(), '\0', text.size()))
            fail(file, "holds NUL bytes: a binary file, not CSV text" + spl::io::looks_like(text.data(), text.size()));

        std::vector<double> floats;
        std::vector<int64_t> ints;
        std::vector<uint8_t> bools;
        int64_t rows = 0, columns = -1, first_row_line = 0;
        int64_t line_number = 0;
        size_t pos = 0;
        while (pos < text.size()) {
            size_t end = text.find('\n', pos);
            if (end == std::string::npos) end = text.size();
            const std::string_view line(text.data() + pos, end - pos);
            pos = end + 1;
            ++line_number;
            if (line_number <= skip_header || blank(line)) continue;
            const auto fields = split(line, delim[0]);
            const auto where = [&](size_t field) {
                return "line " + std::to_string(line_number) + ", field " + std::to_string(field + 1);
            };
            if (columns < 0) {
                columns = static_cast<int64_t>(fields.size());
                first_row_line = line_number;
            } else if (static_cast<int64_t>(fields.size()) != columns) {
                fail(file, "line " + std::to_string(line_number) + " has " + std::to_string(fields.size()) +
                               " fields, expected " + std::to_string(columns) + " (as on line " +
                               std::to_string(first_row_line) + ")");
            }
            for (size_t f = 0; f < fields.size(); ++f) {
                std::string_view s = fields[f];
                if (s.empty()) fail(file, where(f) + ": empty field, a number is expected");
                // The field as messages quote it (made only on an error).
                const auto shown = [&s] {
                    std::string out = "\"";
                    out += s.substr(0, 40);
                    out += s.size() > 40 ? "...\"" : "\"";
                    return out;
                };
                if (target.kind == ColumnKind::Boolean) {
                    std::string lower(s);
                    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                    if (lower == "1" || lower == "true")
                        bools.push_back(1);
                    else if (lower == "0" || lower == "false")
                        bools.push_back(0);
                    else
                        fail(file, where(f) + ": " + shown() + " is not a bool (true, false, 1 or 0)");
                    continue;
                }
                if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
                const char* first = s.data();
                const char* last = s.data() + s.size();
                if (target.kind == ColumnKind::Floating) {
                    double v = 0;
                    const auto r = std::from_chars(first, last, v);
                    if (r.ec == std::errc::result_out_of_range)
                        fail(file, where(f) + ": " + shown() + " is out of the range of a double");
                    if (r.ec != std::errc() || r.ptr != last)
                        fail(file, where(f) + ": " + shown() + " is not a number");
                    floats.push_back(v);
                } else {
                    int64_t v = 0;
                    const auto r = std::from_chars(first, last, v);
                    if (r.ec == std::errc::result_out_of_range ||
                        (r.ec == std::errc() && r.ptr == last && (v < target.min || v > target.max)))
                        fail(file, where(f) + ": " + shown() + " does not fit " + spl::dtype_name(target.type));
                    if (r.ec != std::errc() || r.ptr != last)
                        fail(file, where(f) + ": " + shown() + " is not an integer (dtype " +
                                       spl::dtype_name(target.type) + ")");
                    ints.push_back(v);
                }
            }
            ++rows;
        }
        if (columns < 0) columns = 0;
        at::Tensor t;
        const std::vector<int64_t> shape{rows, columns};
        if (target.kind == ColumnKind::Floating) {
            t = at::empty(shape, at::TensorOptions().dtype(c10::kDouble));
            if (!floats.empty()) std::memcpy(t.data_ptr(), floats.data(), floats.size() * sizeof(double));
        } else if (target.kind == ColumnKind::Integer) {
            t = at::empty(shape, at::TensorOptions().dtype(c10::kLong));
            if (!ints.empty()) std::memcpy(t.data_ptr(), ints.data(), ints.size() * sizeof(int64_t));
        } else {
            t = at::empty(shape, at::TensorOptions().dtype(c10::kBool));
            if (!bools.empty()) std::memcpy(t.data_ptr(), bools.data(), bools.size());
        }
        return spl::new_handle(t.to(target.type));
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_read_csv, "path", "delimiter", "skip_header", "dtype")
