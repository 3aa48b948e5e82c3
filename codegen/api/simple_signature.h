// Layer 2 (API): a function as Simple declares it (`extern fn name(p: T = d) -> R`),
// whether it comes from an operator's binding or from the hand-written extras'
// declarations (spl_stubs/lib/torch/core_ffi.spl). lib.torch's word flavour is
// generated from these, so both kinds get the same treatment.
#pragma once

#include "api/operator_binding.h"

#include <string>
#include <vector>

namespace codegen::api {

struct SimpleParam {
    std::string name;
    std::string type;          // "i64", "[i64]?", "any", ...
    std::string default_value; // a Simple literal, "" when required
};

struct SimpleSignature {
    std::string name;
    std::vector<SimpleParam> params;
    std::string return_type; // "" for none
};

SimpleSignature signature_of(const OperatorBinding& b);
// Every `extern fn` declaration of a Simple source (one line, or several inside its
// parentheses), in order; throws std::runtime_error naming the line for one it cannot read.
std::vector<SimpleSignature> parse_extern_declarations(const std::string& source);

} // namespace codegen::api
