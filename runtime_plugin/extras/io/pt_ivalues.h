// lib.torch.save's flat program (pt_format.h) as c10::IValues and back: the values that cross into
// and out of TorchScript methods, AOTInductor packages and their attributes.
#pragma once

#include "extras/io/pt_format.h"

#include <ATen/core/ivalue.h>
#include <ATen/core/jit_type.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spl::io::pt {

// The program's values in order, each built as the type a schema expects where it can be.
class IValueReader {
public:
    IValueReader(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors)
        : ops_(ops), texts_(std::move(texts)), floats_(floats), tensors_(tensors) {}

    bool done() const { return pos_ == ops_.len; }

    // The next value, as `expected` asks where it can be (a list of tensors as a Tensor[],
    // an int for a float); otherwise as its own type, for the schema check to refuse.
    c10::IValue next(const c10::TypePtr& expected, int64_t depth = 0);

private:
    c10::IValue list(int64_t n, const c10::TypePtr& want, int64_t depth);
    c10::IValue tuple(int64_t n, const c10::TypePtr& want, int64_t depth);
    c10::IValue dict(int64_t n, const c10::TypePtr& want, int64_t depth);
    int64_t take_op();
    int64_t take_count();
    double take_float();
    std::string take_text();
    at::Tensor take_tensor();

    SplI64Array ops_;
    std::vector<std::string> texts_;
    SplF64Array floats_;
    SplI64Array tensors_;
    int64_t pos_ = 0, float_pos_ = 0, tensor_pos_ = 0;
    size_t text_pos_ = 0;
};

// `v` as a program, as rt_torch_pt_load returns one (fresh handles to its tensors); `where`
// names the value in errors (a type lib.torch has no value for).
SplValue ivalue_result(const c10::IValue& v, const std::string& where);

} // namespace spl::io::pt
