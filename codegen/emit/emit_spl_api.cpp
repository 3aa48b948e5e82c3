// Emits ops.spl: lib.torch's generated functions and Tensor methods (text only).
#include "emit/emitters.h"

#include <set>
#include <sstream>

namespace codegen::emit {
namespace {

std::string signature(const api::ApiCallable& c) {
    std::string out = c.name + "(";
    for (size_t i = 0; i < c.params.size(); ++i) {
        const auto& p = c.params[i];
        out += (i ? ", " : "") + p.name + ": " + p.type;
        if (p.default_value) out += " = " + *p.default_value;
    }
    out += ")";
    if (!c.return_type.empty()) out += " -> " + c.return_type;
    return out;
}

void write_callable(std::ostream& out, const api::ApiCallable& c, const std::string& indent) {
    if (c.is_property) out << indent << "@property\n";
    out << indent << "fn " << signature(c) << ":\n";
    for (const auto& line : c.body) out << indent << "    " << line << "\n";
}

// PyTorch's named tuple as a class whose fields are the results' names, which is also a
// sequence of them (len, get_item, iter: `val (v, i) = x.max(dim: 1)`), printed as PyTorch prints it.
void write_named_result(std::ostream& out, const api::NamedResult& r) {
    std::string names, items, shown;
    for (size_t i = 0; i < r.fields.size(); ++i) {
        names += (i ? ", " : "") + r.fields[i].first;
        items += (i ? ", " : "") + std::string("self.") + r.fields[i].first;
        shown += (i ? ",\\n" : "\\n") + r.fields[i].first + "={repr(self." + r.fields[i].first + ")}";
    }
    out << "class " << r.class_name << ":\n";
    out << "    \"\"\"" << r.python_name << ": the results by name (" << names << ") or as a sequence.\"\"\"\n";
    for (const auto& [name, type] : r.fields) out << "    " << name << ": " << type << "\n";
    out << "    fn len() -> i64:\n        " << r.fields.size() << "\n";
    out << "    fn get_item(key) -> any:\n        [" << items << "][key]\n";
    out << "    fn iter() -> [any]:\n        [" << items << "]\n";
    out << "    fn to_string() -> text:\n        \"" << r.python_name << "(" << shown << ")\"\n\n";
}

} // namespace

OutputFile emit_spl_api(const api::BoundSet& set, const api::Policy& policy, const api::BoundSet* reference) {
    const api::ApiSurface surface =
        api::simple_api(set, policy.hand_written_methods, policy.hand_written_functions, policy.tensor_attributes);
    api::ApiSurface absent;
    if (reference)
        absent = api::absent_callables(surface,
                                       api::simple_api(*reference, policy.hand_written_methods,
                                                       policy.hand_written_functions, policy.tensor_attributes),
                                       set.ir->libtorch_version, reference->ir->libtorch_version,
                                       policy.absent_method_fallbacks);
    const std::vector<api::NamedResult> results = api::named_results({&surface, &absent});
    std::ostringstream out;
    out << banner(*set.ir, "#");
    out << "\"\"\"lib.torch's generated API: every ATen function variant as a function and every method\n"
        << "variant as a Tensor method, overloads in the order the host tries them (first match wins).\n"
        << surface.functions.size() << " functions and " << surface.methods.size() << " methods; left to the "
        << "hand-written library: ";
    for (size_t i = 0; i < surface.skipped.size(); ++i) out << (i ? ", " : "") << surface.skipped[i];
    out << ".\n\"\"\"\n\nuse lib.torch.ffi.*\nuse lib.torch.tensor.{Tensor, Generator, opt_handle, handles, "
           "opt_handles, generator_arg}\n\n";
    for (const auto& r : results) write_named_result(out, r);
    out << "impl Tensor:\n";
    for (const auto& m : surface.methods) write_callable(out, m, "    ");
    if (!absent.methods.empty())
        out << "    # methods of LibTorch " << reference->ir->libtorch_version << " that this LibTorch lacks\n";
    for (const auto& m : absent.methods) write_callable(out, m, "    ");
    out << "\n";
    std::set<std::string> names;
    for (const auto& f : surface.functions) {
        write_callable(out, f, "");
        names.insert(f.name);
    }
    if (!absent.functions.empty())
        out << "\n# functions of LibTorch " << reference->ir->libtorch_version << " that this LibTorch lacks\n";
    for (const auto& f : absent.functions) {
        write_callable(out, f, "");
        names.insert(f.name);
    }
    out << "\nexport ";
    size_t i = 0;
    for (const auto& name : names) out << (i++ ? ", " : "") << name;
    out << "\n";
    return {"ops.spl", out.str()};
}

} // namespace codegen::emit
