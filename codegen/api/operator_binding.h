// Layer 2 (API): one operator seen from every side at once — what each
// emitter needs, decided here from the type table so that emitters only format.
#pragma once

#include "api/policy.h"
#include "api/type_table.h"
#include "model/schema.h"

#include <optional>
#include <string>
#include <vector>

namespace codegen::api {

struct ParamBinding {
    const Argument* arg;
    std::string c_name;      // C/C++ identifier
    std::string simple_name; // Simple parameter name
    ArgBinding type;
    std::string unbox;                   // the BoxedArgs accessor
    std::vector<std::string> unbox_args; // its arguments after the index
    std::optional<DefaultBinding> default_value;
};

// What a return turns into.
struct ResultBinding {
    std::string simple_type; // "" for none
    Carrier carrier = Carrier::Void;
    // For a single return: the ATen->typed conversion, or the aliased argument's C name.
    // For several: one boxed expression per element, `{r}` standing for std::get<k>(r).
    std::vector<std::string> element_boxed;
    std::string single_to_abi;     // when returns.size() == 1
    bool returns_argument = false; // in-place / out=: the input handle comes back
    bool is_tuple = false;
    bool is_mixed_tuple = false; // a tuple that is not all tensors: a Simple tuple type, not [i64]
    bool is_void = false;

    std::string c_type() const { return api::c_type(carrier); }
    // Boxed arrays are built in the calling thread's ResultArena, which each
    // call resets first (spl_plugin.h: results live until the next call).
    bool uses_scratch() const { return carrier == Carrier::Value; }
};

struct OperatorBinding {
    const Operator* op;
    std::string entry_point;
    std::string ops_struct;
    std::vector<ParamBinding> params;
    int nrequired = 0;
    ResultBinding result;
};

// Binds an operator, or returns std::nullopt with `why` naming the first type
// without a binding.
std::optional<OperatorBinding> bind_operator(const Operator& op, std::string* why);
// The same, named as the policy says (its reserved entry points).
std::optional<OperatorBinding> bind_operator(const Operator& op, const Policy& policy, std::string* why);

// The argument whose written alias set a return shares (`Tensor(a!)` -> self):
// such a return is that argument, not a new tensor. nullptr for other returns.
const ParamBinding* aliased_argument(const Return& ret, const std::vector<ParamBinding>& params);

} // namespace codegen::api
