// Port of _tensor_str.py's _tensor_str: the bracketed values of a strided tensor.
#include "extras/format/tensor_body.h"

#include "extras/format/element_formatter.h"
#include "extras/format/python_text.h"
#include "extras/format/summarize.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/imag.h>
#include <ATen/ops/real.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace spl::format {

namespace {

// formatter2 of the Python code: complex tensors format their real and their
// imaginary parts separately, each with its own mode and width.
struct Formatters {
    ElementFormatter real;
    std::optional<ElementFormatter> imag;
};

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
    return out;
}

// "," then `newlines` newlines and `indent` spaces: what separates wrapped
// lines and nested blocks. (Built by appending: GCC 12 warns falsely about
// `"," + std::string(n, c)`.)
std::string line_break(int64_t newlines, int64_t indent) {
    std::string text = ",";
    text.append(static_cast<size_t>(newlines), '\n');
    text.append(static_cast<size_t>(indent), ' ');
    return text;
}

std::string bracketed(const std::string& inner) {
    std::string text = "[";
    text += inner;
    text += ']';
    return text;
}

// _val_formatter / _scalar_str: each element of `values` as text; a complex
// one as real part, then the imaginary part with its sign ("+" added unless
// the imaginary text already starts with one, so -0.0 keeps its "-").
std::vector<std::string> element_texts(const at::Tensor& values, const Formatters& f) {
    if (!f.imag) return f.real.format(values);
    std::vector<std::string> texts = f.real.format(at::real(values));
    const std::vector<std::string> imag = f.imag->format(at::imag(values));
    for (size_t i = 0; i < texts.size(); ++i) {
        const std::string imag_text = lstrip(imag[i] + "j");
        texts[i] += (imag_text[0] == '+' || imag_text[0] == '-') ? imag_text : "+" + imag_text;
    }
    return texts;
}

// _vector_str: a 1-d tensor, wrapped so that a line holds as many elements as
// fit in linewidth after the indent (at least one).
std::string vector_str(const at::Tensor& self, int64_t indent, bool summarize, const Formatters& f,
                       const PrintOptions& options) {
    // the length includes the ", " between elements; complex adds the imaginary part and its "j"
    size_t element_length = f.real.width() + 2;
    if (f.imag) element_length += f.imag->width() + 1;
    const auto elements_per_line = static_cast<size_t>(std::max<double>(
        1, std::floor(static_cast<double>(options.linewidth - indent) / static_cast<double>(element_length))));

    const int64_t n = self.size(0), edge = options.edgeitems;
    std::vector<std::string> data;
    if (summarize && edge == 0) {
        data = {"..."};
    } else if (summarize && n > 2 * edge) {
        data = element_texts(self.slice(0, 0, edge), f);
        data.push_back(" ...");
        for (std::string& text : element_texts(self.slice(0, n - edge, n), f)) data.push_back(std::move(text));
    } else {
        data = element_texts(self, f);
    }

    std::vector<std::string> lines;
    for (size_t i = 0; i < data.size(); i += elements_per_line) {
        const auto end = data.begin() + static_cast<std::ptrdiff_t>(std::min(data.size(), i + elements_per_line));
        lines.push_back(joined(std::vector<std::string>(data.begin() + static_cast<std::ptrdiff_t>(i), end), ", "));
    }
    return bracketed(joined(lines, line_break(1, indent + 1)));
}

// _tensor_str_with_formatter: the nested brackets, one level per dimension;
// blocks of an n-d tensor are separated by n-1 newlines, and a summarized
// dimension shows its edge blocks around a "..." row.
std::string str_with_formatter(const at::Tensor& self, int64_t indent, bool summarize, const Formatters& f,
                               const PrintOptions& options) {
    const int64_t dim = self.dim();
    if (dim == 0) return element_texts(self, f).front();
    if (dim == 1) return vector_str(self, indent, summarize, f, options);

    const int64_t n = self.size(0), edge = options.edgeitems;
    std::vector<std::string> slices;
    if (summarize && n > 2 * edge) {
        for (int64_t i = 0; i < edge; ++i)
            slices.push_back(str_with_formatter(self[i], indent + 1, summarize, f, options));
        slices.push_back("...");
        for (int64_t i = n - edge; i < n; ++i)
            slices.push_back(str_with_formatter(self[i], indent + 1, summarize, f, options));
    } else {
        for (int64_t i = 0; i < n; ++i)
            slices.push_back(str_with_formatter(self[i], indent + 1, summarize, f, options));
    }
    return bracketed(joined(slices, line_break(dim - 1, indent + 1)));
}

ElementFormatter formatter_for(const at::Tensor& part, bool summarize, const PrintOptions& options) {
    return ElementFormatter(summarize ? summarized_data(part, options) : part, options);
}

} // namespace

std::string tensor_body(const at::Tensor& tensor, int64_t indent, const PrintOptions& options) {
    if (tensor.numel() == 0) return "[]";
    const bool summarize = tensor.numel() > options.threshold;

    at::Tensor self = tensor;
    if (self._is_zerotensor()) self = self.clone();
    // The lazy negative and conjugate bits are applied before any value is
    // read (reading the storage directly would ignore them).
    if (self.is_neg()) self = self.resolve_neg();
    if (self.is_complex()) {
        self = self.resolve_conj();
        const Formatters f{formatter_for(at::real(self), summarize, options),
                           formatter_for(at::imag(self), summarize, options)};
        return str_with_formatter(self, indent, summarize, f, options);
    }
    const Formatters f{formatter_for(self, summarize, options), std::nullopt};
    return str_with_formatter(self, indent, summarize, f, options);
}

} // namespace spl::format
