// Emits lib.torch's word flavour: ffi.spl and core_ffi.spl for the real Simple
// runtime, from the API layer's signatures and word codes (text only).
#include "emit/emitters.h"

#include "api/names.h"
#include "api/text_template.h"
#include "api/word_layout.h"

#include <sstream>

namespace codegen::emit {
namespace {

using api::quoted;

std::string header(const std::string& what) {
    return "\"\"\"" + what +
           " for the real Simple runtime: each function has the raw declaration's name and parameters\n"
           "and calls the plugin's word adapter (spl_w_<name>) through word_call, as that runtime can only\n"
           "call native code with 64-bit words (runtime_plugin/spl_plugin.h, \"The word convention\").\n"
           "\"\"\"\nuse lib.torch.word_call.{word_call}\n\n";
}

std::string word_function(const api::SimpleSignature& sig) {
    std::string params, codes, args;
    for (size_t i = 0; i < sig.params.size(); ++i) {
        const auto& p = sig.params[i];
        params += (i ? ", " : "") + p.name + ": " + p.type + (p.default_value.empty() ? "" : " = " + p.default_value);
        codes += api::word_param_code(p.type);
        args += (i ? ", " : "") + p.name;
    }
    const std::string call = "word_call(" + quoted(sig.name) + ", " + quoted(codes) + ", [" + args + "], " +
                             quoted(std::string(1, api::word_result_code(sig.return_type))) + ")";
    std::string out =
        "fn " + sig.name + "(" + params + ")" + (sig.return_type.empty() ? "" : " -> " + sig.return_type) + ":\n";
    if (const int n = api::tuple_arity(sig.return_type)) {
        out += "    val r = " + call + "\n    (";
        for (int k = 0; k < n; ++k) out += (k ? ", " : "") + std::string("r[") + std::to_string(k) + "]";
        return out + ")\n";
    }
    return out + "    " + call + "\n";
}

} // namespace

OutputFile emit_word_ffi(const api::BoundSet& set, const api::BoundSet* reference) {
    std::ostringstream out;
    out << banner(*set.ir, "#") << header("The raw LibTorch entry points of libspl_torch.so (one per ATen overload)");
    out << "val LIBTORCH_VERSION = \"" << set.ir->libtorch_version << "\"\n\n";
    for (const auto& b : set.bound) out << word_function(api::signature_of(b));
    out << absent_entry_point_functions(set, reference);
    return {"ffi.spl", out.str()};
}

OutputFile emit_word_core_ffi(const OperatorSet& ir, const std::vector<api::SimpleSignature>& extras) {
    std::ostringstream out;
    out << banner(ir, "#") << header("The hand-written entry points of libspl_torch.so (runtime_plugin/extras/)");
    for (const auto& sig : extras) out << word_function(sig);
    return {"core_ffi.spl", out.str()};
}

OutputFile emit_manifest(const api::BoundSet& set, const std::vector<api::SimpleSignature>& extras,
                         const std::string& library, const std::string& version) {
    // The convention's own functions (runtime_plugin/spl_plugin.h), then every adapter.
    std::vector<std::string> names = {"spl_w_error_pending", "spl_w_last_error", "spl_w_list_len",  "spl_w_list_new",
                                      "spl_w_list_push",     "spl_w_list_tag",   "spl_w_list_word", "spl_w_result_tag"};
    for (const auto& b : set.bound) names.push_back(api::word_symbol(b.entry_point));
    for (const auto& sig : extras) names.push_back(api::word_symbol(sig.name));
    std::ostringstream out;
    out << banner(*set.ir, "#");
    out << "# The real Simple runtime's plugin manifest entry for libspl_torch.so (its plugin_manifest.rs):\n"
        << "# point $SIMPLE_PLUGIN_MANIFEST here, or merge it into ~/.simple/plugins/manifest.sdn. It lists the\n"
        << "# word-convention functions, the ones callable with integer words only (spl_plugin.h).\n";
    out << "plugins:\n    -\n        name: torch\n        library: " << library
        << "\n        version: " << quoted(version) << "\n        functions: [";
    for (size_t i = 0; i < names.size(); ++i) out << (i ? ", " : "") << names[i];
    out << "]\n";
    return {"manifest.sdn", out.str()};
}

} // namespace codegen::emit
