// Emits the sharded C++ entry points and spl_torch_ops.h from the API layer's decisions (text only).
#include "emit/emitters.h"

#include "api/text_template.h"
#include "api/names.h"

#include <map>
#include <set>
#include <sstream>

namespace codegen::emit {
namespace {

using api::substitute;

std::string c_params(const api::OperatorBinding& b) {
    std::string out;
    for (size_t i = 0; i < b.params.size(); ++i)
        out += (i ? ", " : "") + b.params[i].type.c_type() + " " + b.params[i].c_name;
    return out.empty() ? "void" : out;
}

std::string typed_prototype(const api::OperatorBinding& b) {
    return b.result.c_type() + " " + b.entry_point + "(" + c_params(b) + ")";
}

// The ATen call with every argument converted: at::_ops::add_Tensor::call(...).
std::string aten_call(const api::OperatorBinding& b) {
    std::string args;
    for (size_t i = 0; i < b.params.size(); ++i) {
        const auto& p = b.params[i];
        std::string conv = substitute(p.type.to_aten, "{v}", p.c_name);
        conv = substitute(conv, "{n}", "\"" + p.arg->name + "\"");
        conv = substitute(conv, "{N}", std::to_string(p.arg->type.list_size.value_or(0)));
        args += (i ? ", " : "") + conv;
    }
    return "at::_ops::" + b.ops_struct + "::call(" + args + ")";
}

void emit_typed(std::ostream& out, const api::OperatorBinding& b) {
    const auto& r = b.result;
    out << "extern \"C\" SPL_TORCH_EXPORT " << typed_prototype(b) << " {\n";
    out << "    return spl::guarded<" << r.c_type() << ">(\"" << b.entry_point << "\", [&] {\n";
    if (r.uses_scratch()) out << "        spl::ResultArena::current().reset();\n";
    if (r.is_void) {
        out << "        " << aten_call(b) << ";\n";
    } else if (r.is_tuple) {
        out << "        auto&& r = " << aten_call(b) << ";\n";
        out << "        (void)r;\n";
        out << "        return spl::tuple_value({";
        for (size_t k = 0; k < r.element_boxed.size(); ++k) out << (k ? ", " : "") << r.element_boxed[k];
        out << "});\n";
    } else if (r.returns_argument) {
        out << "        " << aten_call(b) << ";\n";
        out << "        return " << r.single_to_abi << ";\n";
    } else {
        out << "        return " << substitute(r.single_to_abi, "{r}", aten_call(b)) << ";\n";
    }
    out << "    });\n}\n";
}

// Messages name a parameter as the schema does (`self`), as the typed entry
// point's do; the registered Simple name differs where Simple reserves the
// word (`self_`). Only then do the thunk's messages need their own names.
bool renames_params(const api::OperatorBinding& b) {
    for (const auto& p : b.params)
        if (p.simple_name != p.arg->name) return true;
    return false;
}

void emit_boxed(std::ostream& out, const api::OperatorBinding& b) {
    out << "extern const SplFunction " << api::registry_entry_name(b.entry_point) << ";\n";
    out << "SplStatus spl_boxed_" << b.entry_point << "(const SplValue* a, int32_t n, SplValue* r) {\n";
    std::string names = "";
    if (renames_params(b)) {
        out << "    static const char* const kNames[] = {";
        for (size_t i = 0; i < b.params.size(); ++i) out << (i ? ", " : "") << api::quoted(b.params[i].arg->name);
        out << "};\n";
        names = ", kNames";
    }
    out << "    return spl::boxed_call(r, [&](SplValue* result) {\n";
    out << "        spl::BoxedArgs in(" << api::registry_entry_name(b.entry_point) << ", a, n" << names << ");\n";
    std::string args;
    for (size_t i = 0; i < b.params.size(); ++i) {
        const auto& p = b.params[i];
        std::string read = "in." + p.unbox + "(" + std::to_string(i);
        for (const auto& extra : p.unbox_args) read += ", " + extra;
        if (p.default_value && static_cast<int>(i) >= b.nrequired) read += ", " + p.default_value->cpp;
        read += ")";
        args += (i ? ", " : "") + read;
    }
    if (b.result.is_void) {
        out << "        " << b.entry_point << "(" << args << ");\n";
        out << "        *result = spl::v_nil();\n";
    } else {
        out << "        *result = spl::boxed(" << b.entry_point << "(" << args << "));\n";
    }
    out << "    });\n}\n";
}

// FNV-1a: the same on every platform and compiler, unlike std::hash, so generated files
// are the same everywhere.
uint64_t stable_hash(const std::string& text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

} // namespace

std::vector<OutputFile> emit_cpp(const api::BoundSet& set, int shards) {
    // Operators sharing a per-operator header stay in one shard, chosen by a hash of the
    // header's name: adding or removing an operator then changes (and rebuilds) its own shard
    // only, not every shard after it, and ~1,200 headers spread evenly enough over the shards
    // for each of the two cores to get about the same share of the build.
    std::map<std::string, std::vector<size_t>> by_header;
    for (size_t i = 0; i < set.bound.size(); ++i) by_header[api::ops_header(set.bound[i].op->schema)].push_back(i);
    std::vector<std::vector<std::string>> headers(shards);
    std::vector<std::vector<size_t>> members(shards);
    for (const auto& [header, indices] : by_header) {
        const int shard = static_cast<int>(stable_hash(header) % static_cast<uint64_t>(shards));
        headers[shard].push_back(header);
        members[shard].insert(members[shard].end(), indices.begin(), indices.end());
    }

    std::vector<OutputFile> files;
    for (int s = 0; s < shards; ++s) {
        std::ostringstream out;
        out << banner(*set.ir, "//");
        out << "// Shard " << s << " of " << shards << ": " << members[s].size() << " entry points.\n";
        out << "#include \"generated_support.h\"\n\n";
        for (const auto& h : headers[s]) out << "#include <" << h << ">\n";
        out << "\nnamespace {\n";
        for (size_t i : members[s])
            for (const auto& p : set.bound[i].params)
                if (p.default_value && !p.default_value->cpp_array_decl.empty() &&
                    &p - set.bound[i].params.data() >= set.bound[i].nrequired)
                    out << p.default_value->cpp_array_decl << "\n";
        out << "} // namespace\n\n";
        for (size_t i : members[s]) {
            emit_typed(out, set.bound[i]);
            emit_boxed(out, set.bound[i]);
            out << "\n";
        }
        char name[32];
        std::snprintf(name, sizeof name, "ops_%02d.cpp", s);
        files.push_back({name, out.str()});
    }

    std::ostringstream header;
    header << banner(*set.ir, "//");
    header << "// Every typed entry point of libspl_torch.so, for compiled Simple code and C callers.\n";
    header << "// Errors: a failed call returns a zero value and sets rt_torch_error_pending().\n";
    header << "#ifndef SPL_TORCH_OPS_H\n#define SPL_TORCH_OPS_H\n\n#include \"spl_plugin.h\"\n\n";
    header << "#define SPL_TORCH_LIBTORCH_VERSION \"" << set.ir->libtorch_version << "\"\n\n";
    header << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    for (const auto& b : set.bound) header << typed_prototype(b) << ";\n";
    header << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
    files.push_back({"spl_torch_ops.h", header.str()});
    return files;
}

} // namespace codegen::emit
