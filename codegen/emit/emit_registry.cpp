// Emits registry.cpp (the sorted SplFunction table) and ffi.spl (the raw extern fns) (text only).
#include "emit/emitters.h"

#include "api/names.h"
#include "api/text_template.h"

#include <sstream>

namespace codegen::emit {

using api::quoted;

std::string simple_declaration(const api::OperatorBinding& b) {
    std::string out = "extern fn " + b.entry_point + "(";
    for (size_t i = 0; i < b.params.size(); ++i) {
        const auto& p = b.params[i];
        out += (i ? ", " : "") + p.simple_name + ": " + p.type.simple_type;
        if (p.default_value) out += " = " + p.default_value->simple;
    }
    out += ")";
    if (!b.result.simple_type.empty()) out += " -> " + b.result.simple_type;
    return out;
}

OutputFile emit_registry(const api::BoundSet& set) {
    std::ostringstream out;
    out << banner(*set.ir, "//");
    out << "// The registration table: one SplFunction per entry point, sorted by name.\n";
    out << "#include \"generated_support.h\"\n#include \"spl_torch_ops.h\"\n#include \"abi/word_call.h\"\n\n";
    for (const auto& b : set.bound)
        out << "SplStatus spl_boxed_" << b.entry_point << "(const SplValue*, int32_t, SplValue*);\n";
    out << "extern \"C\" {\n";
    for (const auto& b : set.bound)
        out << "SPL_TORCH_EXPORT int64_t " << api::word_symbol(b.entry_point) << "(SPL_WORD_PARAMS);\n";
    out << "}\n";
    out << "\nnamespace {\n";
    for (size_t i = 0; i < set.bound.size(); ++i) {
        const auto& b = set.bound[i];
        if (b.params.empty()) continue;
        out << "const SplParam kParams" << i << "[] = {";
        for (size_t k = 0; k < b.params.size(); ++k) {
            const auto& p = b.params[k];
            out << (k ? ", " : "") << "{" << quoted(p.simple_name) << ", " << quoted(p.type.simple_type) << ", "
                << (p.default_value ? quoted(p.default_value->simple) : "nullptr") << "}";
        }
        out << "};\n";
    }
    out << "} // namespace\n\n";
    // One object per entry point, which its boxed thunk (in a shard) and word adapter name
    // directly: a shard's text then changes only with its own operators, not with their
    // positions in the table (an operator added or removed rebuilds one shard).
    for (size_t i = 0; i < set.bound.size(); ++i) {
        const auto& b = set.bound[i];
        out << "extern const SplFunction " << api::registry_entry_name(b.entry_point) << " = {" << quoted(b.entry_point)
            << ", " << quoted(simple_declaration(b)) << ", " << quoted(b.result.simple_type) << ", "
            << (b.params.empty() ? "nullptr" : "kParams" + std::to_string(i)) << ", " << b.params.size() << ", "
            << b.nrequired << ", &spl_boxed_" << b.entry_point << ", reinterpret_cast<void (*)(void)>(&"
            << b.entry_point << "), &" << api::word_symbol(b.entry_point) << "};\n";
    }
    out << "\nextern const SplFunction* const spl_torch_generated_functions[] = {\n";
    for (const auto& b : set.bound) out << "    &" << api::registry_entry_name(b.entry_point) << ",\n";
    out << "};\n";
    out << "\n// The word adapters (spl_plugin.h, \"The word convention\"; abi/word_call.h).\n";
    for (const auto& b : set.bound)
        out << "int64_t " << api::word_symbol(b.entry_point) << "(SPL_WORD_PARAMS) { return SPL_WORD_CALL("
            << api::registry_entry_name(b.entry_point) << "); }\n";
    out << "extern const int64_t spl_torch_generated_count = " << set.bound.size() << ";\n";
    out << "extern const char spl_torch_generated_libtorch_version[] = " << quoted(set.ir->libtorch_version) << ";\n";
    return {"registry.cpp", out.str()};
}

OutputFile emit_spl(const api::BoundSet& set, const api::BoundSet* reference) {
    std::ostringstream out;
    out << banner(*set.ir, "#");
    out << "\"\"\"The raw LibTorch entry points of libspl_torch.so: one extern fn per ATen operator overload.\n\n";
    out << "Tensors are i64 handles (0 = None). Programs use lib.torch, which wraps these.\n\"\"\"\n\n";
    out << "val LIBTORCH_VERSION = \"" << set.ir->libtorch_version << "\"\n\n";
    for (const auto& b : set.bound) out << simple_declaration(b) << "\n";
    out << absent_entry_point_functions(set, reference);
    return {"ffi.spl", out.str()};
}

std::string absent_entry_point_functions(const api::BoundSet& set, const api::BoundSet* reference) {
    if (!reference) return "";
    std::ostringstream out;
    const auto absent = api::absent_entry_points(set, *reference);
    if (!absent.empty())
        out << "\n# Entry points of LibTorch " << reference->ir->libtorch_version
            << " that this LibTorch lacks: " << absent.size() << ", each raising an error when called.\n";
    for (const api::OperatorBinding* b : absent) {
        const std::string declaration = simple_declaration(*b);
        out << declaration.substr(std::string("extern ").size()) << ": "
            << api::absent_operator_error(*b, set.ir->libtorch_version, reference->ir->libtorch_version) << "\n";
    }
    return out.str();
}

} // namespace codegen::emit
