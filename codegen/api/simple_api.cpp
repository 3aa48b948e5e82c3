// Decides lib.torch's generated functions and Tensor methods, with overloads in first-match order (layer 2).
#include "api/simple_api.h"

#include "api/text_template.h"

#include <algorithm>
#include <stdexcept>
#include <map>

namespace codegen::api {
namespace {

// A Simple name for an operator: keywords and type names get a trailing `_`
// (`var` is a keyword: torch.var is `var_` in Simple).
std::string simple_callable_name(const std::string& name) {
    static const std::set<std::string> reserved = {"var", "val", "fn", "any",   "me",   "in",  "is",   "as",
                                                   "not", "and", "or", "match", "type", "use", "text", "bool"};
    return reserved.count(name) ? name + "_" : name;
}

// The lib.torch value a written argument stands for (self for methods).
std::string object_of(const ParamBinding& p, bool method) {
    return (method && p.arg->name == "self") ? "self" : p.simple_name;
}

ApiCallable make_callable(const OperatorBinding& b, bool method) {
    ApiCallable c;
    c.binding = &b;
    c.name = simple_callable_name(b.op->schema.name);
    std::vector<std::string> ffi_args;
    for (const auto& p : b.params) {
        const std::string object = object_of(p, method);
        ffi_args.push_back(substitute(p.type.to_ffi, "{v}", object));
        if (object == "self") continue;
        ApiParam param{p.simple_name, p.type.api_type, std::nullopt, p.type.carries_tensors};
        if (p.default_value) param.default_value = p.default_value->api;
        c.params.push_back(std::move(param));
    }
    std::string call = b.entry_point + "(";
    for (size_t i = 0; i < ffi_args.size(); ++i) call += (i ? ", " : "") + ffi_args[i];
    call += ")";

    const auto& returns = b.op->schema.returns;
    auto aliased = [&](const Return& ret) { return aliased_argument(ret, b.params); };
    auto element = [&](const Return& ret, const std::string& value, std::string* type) {
        if (const ParamBinding* p = aliased(ret)) {
            *type = p->type.api_type;
            return object_of(*p, method);
        }
        const auto rb = bind_return(ret.type, nullptr);
        *type = rb->api_type;
        return substitute(rb->from_ffi, "{r}", value);
    };

    if (returns.empty()) {
        c.body.push_back(call);
    } else if (returns.size() == 1) {
        if (const ParamBinding* p = aliased(returns[0])) {
            c.body.push_back(call);
            c.body.push_back(object_of(*p, method));
            c.return_type = p->type.api_type;
        } else {
            c.body.push_back(element(returns[0], call, &c.return_type));
        }
    } else {
        c.body.push_back("val r = " + call);
        // PyTorch gives named tuples for public operators only (torch.return_types).
        const bool named =
            b.op->schema.name[0] != '_' &&
            std::all_of(returns.begin(), returns.end(), [](const Return& r) { return r.name.has_value(); });
        NamedResult result{"return_types_" + b.op->schema.name, "torch.return_types." + b.op->schema.name, {}};
        std::string tuple = "(", types = "(";
        for (size_t k = 0; k < returns.size(); ++k) {
            std::string type;
            const std::string value = element(returns[k], "r[" + std::to_string(k) + "]", &type);
            tuple += (k ? ", " : "") + (named ? *returns[k].name + ": " : "") + value;
            types += (k ? ", " : "") + type;
            if (named) result.fields.emplace_back(*returns[k].name, type);
        }
        if (named) {
            c.body.push_back(result.class_name + tuple + ")");
            c.return_type = result.class_name;
            c.named_result = std::move(result);
        } else {
            c.body.push_back(tuple + ")");
            c.return_type = types + ")";
        }
    }
    return c;
}

// First-match resolution tries overloads in this order: out= variants last
// (they need `out:`), then those taking more tensors first, so that
// `x.add(y)` with a Tensor y picks add.Tensor before add.Scalar (`any`).
void order_overloads(std::vector<ApiCallable>& callables) {
    std::stable_sort(callables.begin(), callables.end(), [](const ApiCallable& a, const ApiCallable& b) {
        if (a.name != b.name) return a.name < b.name;
        const bool a_out = a.binding->op->schema.kind() == SchemaKind::out;
        const bool b_out = b.binding->op->schema.kind() == SchemaKind::out;
        if (a_out != b_out) return b_out;
        auto tensors = [](const ApiCallable& c) {
            return std::count_if(c.params.begin(), c.params.end(), [](const ApiParam& p) { return p.takes_tensors; });
        };
        return tensors(a) > tensors(b);
    });
}

} // namespace

ApiSurface simple_api(const BoundSet& set, const std::set<std::string>& hand_written_methods,
                      const std::set<std::string>& hand_written_functions,
                      const std::set<std::string>& tensor_attributes) {
    ApiSurface api;
    std::set<std::string> skipped;
    for (const auto& b : set.bound) {
        const auto& variants = b.op->variants;
        const std::string& name = b.op->schema.name;
        if (std::find(variants.begin(), variants.end(), "function") != variants.end()) {
            if (hand_written_functions.count(name))
                skipped.insert(name);
            else
                api.functions.push_back(make_callable(b, false));
        }
        if (std::find(variants.begin(), variants.end(), "method") != variants.end()) {
            if (hand_written_methods.count(name))
                skipped.insert("Tensor." + name);
            else
                api.methods.push_back(make_callable(b, true));
        }
    }
    order_overloads(api.functions);
    order_overloads(api.methods);
    std::map<std::string, int> overloads;
    for (const auto& m : api.methods) ++overloads[m.name];
    for (auto& m : api.methods)
        m.is_property = tensor_attributes.count(m.name) && m.params.empty() && overloads[m.name] == 1;
    api.skipped.assign(skipped.begin(), skipped.end());
    return api;
}

namespace {

// Name and parameter types: two callables with the same key are the same overload to the host.
std::string overload_key(const ApiCallable& c) {
    std::string key = c.name + "(";
    for (const auto& p : c.params) key += p.type + ",";
    return key + ")";
}

std::vector<ApiCallable> absent(const std::vector<ApiCallable>& here, const std::vector<ApiCallable>& reference,
                                const std::string& here_version, const std::string& reference_version,
                                const std::map<std::string, std::vector<std::string>>& fallbacks) {
    std::set<std::string> present;
    for (const auto& c : here) present.insert(overload_key(c));
    std::vector<ApiCallable> out;
    for (const auto& c : reference) {
        if (present.count(overload_key(c))) continue;
        ApiCallable stub = c;
        const auto fallback = fallbacks.find(c.name);
        stub.body = fallback != fallbacks.end()
                        ? fallback->second
                        : std::vector<std::string>{absent_operator_error(*c.binding, here_version, reference_version)};
        out.push_back(std::move(stub));
    }
    return out;
}

} // namespace

std::string absent_operator_error(const OperatorBinding& b, const std::string& here_version,
                                  const std::string& reference_version) {
    return "error(\"aten::" + b.op->schema.qualified_name() + " is not in LibTorch " + here_version +
           ", the LibTorch this lib.torch was built for (LibTorch " + reference_version + " has it)\")";
}

ApiSurface absent_callables(const ApiSurface& here, const ApiSurface& reference, const std::string& here_version,
                            const std::string& reference_version,
                            const std::map<std::string, std::vector<std::string>>& method_fallbacks) {
    ApiSurface out;
    out.functions = absent(here.functions, reference.functions, here_version, reference_version, {});
    out.methods = absent(here.methods, reference.methods, here_version, reference_version, method_fallbacks);
    return out;
}

std::vector<NamedResult> named_results(const std::vector<const ApiSurface*>& surfaces) {
    std::map<std::string, NamedResult> by_class;
    for (const ApiSurface* s : surfaces)
        for (const auto* list : {&s->functions, &s->methods})
            for (const auto& c : *list) {
                if (!c.named_result) continue;
                auto [it, added] = by_class.emplace(c.named_result->class_name, *c.named_result);
                if (!added && it->second.fields != c.named_result->fields)
                    throw std::runtime_error(c.named_result->python_name +
                                             ": overloads name their results differently");
            }
    std::vector<NamedResult> out;
    for (auto& [_, r] : by_class) out.push_back(std::move(r));
    return out;
}

std::vector<const OperatorBinding*> absent_entry_points(const BoundSet& here, const BoundSet& reference) {
    std::set<std::string> present;
    for (const auto& b : here.bound) present.insert(b.entry_point);
    std::vector<const OperatorBinding*> out;
    for (const auto& b : reference.bound)
        if (!present.count(b.entry_point)) out.push_back(&b);
    return out;
}

} // namespace codegen::api
