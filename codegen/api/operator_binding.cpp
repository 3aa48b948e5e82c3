// Decides one operator's binding on every side from the type table, so emitters only format (layer 2).
#include "api/operator_binding.h"

#include "api/text_template.h"

#include "api/names.h"

#include <algorithm>

namespace codegen::api {
namespace {} // namespace

std::optional<OperatorBinding> bind_operator(const Operator& op, std::string* why) {
    OperatorBinding b;
    b.op = &op;
    b.entry_point = entry_point_name(op.schema);
    b.ops_struct = ops_struct_name(op.schema);

    for (const Argument& arg : op.schema.arguments) {
        auto type = bind_argument(arg.type, why);
        if (!type) return std::nullopt;
        ParamBinding p{&arg, c_param_name(arg.name), simple_param_name(arg.name), *type, type->unbox, {}, std::nullopt};
        // A bare integer given for a fixed-size list fills it (`int[2] kernel_size=3`).
        if (arg.type.list_size && !type->sized_unbox.empty()) {
            p.unbox = type->sized_unbox;
            p.unbox_args.push_back(std::to_string(*arg.type.list_size));
        }
        if (arg.default_value) p.default_value = bind_default(arg, "kDefault_" + b.ops_struct + "_" + arg.name);
        b.params.push_back(std::move(p));
    }
    b.nrequired = static_cast<int>(b.params.size());
    // A boxed call may omit only trailing arguments: an argument with a
    // default before a required one (alpha before out=) keeps its default in
    // the Simple declaration, for hosts to fill in, but is required here.
    while (b.nrequired > 0 && b.params[b.nrequired - 1].default_value) --b.nrequired;

    const auto& returns = op.schema.returns;
    ResultBinding& r = b.result;
    if (returns.empty()) {
        r.is_void = true;
        r.carrier = Carrier::Void;
        r.simple_type = "";
        return b;
    }
    if (returns.size() == 1) {
        const Return& ret = returns[0];
        if (const ParamBinding* p = aliased_argument(ret, b.params)) {
            const ReturnBinding rb = bind_aliased_return(ret.type);
            r.returns_argument = true;
            r.carrier = rb.carrier;
            r.simple_type = rb.simple_type;
            r.single_to_abi = substitute(rb.to_abi, "{r}", p->c_name);
            return b;
        }
        auto rb = bind_return(ret.type, why);
        if (!rb) return std::nullopt;
        r.carrier = rb->carrier;
        r.simple_type = rb->simple_type;
        r.single_to_abi = rb->to_abi;
        return b;
    }
    r.is_tuple = true;
    r.carrier = Carrier::Value;
    bool all_tensors = true;
    std::vector<std::string> simple_types;
    for (size_t k = 0; k < returns.size(); ++k) {
        const Return& ret = returns[k];
        if (const ParamBinding* p = aliased_argument(ret, b.params)) {
            const ReturnBinding rb = bind_aliased_return(ret.type);
            r.element_boxed.push_back(substitute(rb.to_boxed, "{r}", p->c_name));
            simple_types.push_back(rb.simple_type);
            all_tensors = all_tensors && rb.is_tensor;
            continue;
        }
        auto rb = bind_return(ret.type, why);
        if (!rb) return std::nullopt;
        r.element_boxed.push_back(substitute(rb->to_boxed, "{r}", "std::get<" + std::to_string(k) + ">(r)"));
        simple_types.push_back(rb->simple_type);
        all_tensors = all_tensors && rb->is_tensor;
    }
    if (all_tensors) {
        r.simple_type = "[i64]";
    } else {
        r.is_mixed_tuple = true;
        r.simple_type = "(";
        for (size_t k = 0; k < simple_types.size(); ++k) r.simple_type += (k ? ", " : "") + simple_types[k];
        r.simple_type += ")";
    }
    return b;
}

const ParamBinding* aliased_argument(const Return& ret, const std::vector<ParamBinding>& params) {
    if (!ret.type.is_written()) return nullptr;
    for (const auto& p : params) {
        const auto& alias = p.arg->type.alias;
        if (alias && alias->is_write && alias->before_set == ret.type.alias->before_set) return &p;
    }
    return nullptr;
}

std::optional<OperatorBinding> bind_operator(const Operator& op, const Policy& policy, std::string* why) {
    auto binding = bind_operator(op, why);
    if (binding) binding->entry_point = policy.entry_point_for(binding->entry_point);
    return binding;
}

} // namespace codegen::api
