// torch-codegen: LibTorch's operator schemas -> JSON IR -> C++ entry points,
// Simple declarations, the registration table and a coverage report.
//
//   torch-codegen ir       --native-functions F --tags F --version V -o IR.json
//   torch-codegen ir       --headers INCLUDE_DIR [--version V] -o IR.json
//   torch-codegen emit     --ir IR.json --policy P --out-dir D [--shards N] [--reference-ir REF.json]
//   torch-codegen generate (ir's options) --policy P --out-dir D [--shards N] [--reference-ir REF.json]
//                                                          (ir + emit in one run)
//
// --reference-ir: the IR lib.torch's hand-written library is written against (the pin's);
// its operators this LibTorch lacks become functions that raise an error naming them.
//   torch-codegen diff     OLD_IR NEW_IR [--json] [--policy P] [--spl-lib DIR]
//   torch-codegen word-flavour --ir IR.json --policy P --core-ffi CORE_FFI.spl --out-dir D [--reference-ir REF.json]
//                          [--manifest-library LIB.so --plugin-version V]
//                          lib.torch's ffi.spl and core_ffi.spl for the real Simple runtime (word calls),
//                          and its manifest.sdn naming the installed plugin
//
// `ir` and `generate` read native_functions.yaml (--frontend yaml) or the
// installed headers (--frontend headers); by default the YAML when
// --native-functions names an existing file, else the headers.
#include "api/bound_set.h"
#include "diff/diff_report.h"
#include "emit/emitters.h"
#ifdef SPL_TORCH_HEADER_FRONTEND
#include "frontend/header_frontend.h"
#endif
#include "frontend/yaml_frontend.h"
#include "model/ir_json.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Options = std::map<std::string, std::string>;

// `--key value` pairs and `-o FILE`; `--json` is a flag (value "1"). Other
// arguments are positional, which only `diff` takes (its two IR files).
Options parse_options(int argc, char** argv, int first, std::vector<std::string>* positional) {
    Options options;
    for (int i = first; i < argc; ++i) {
        std::string key = argv[i];
        if (key == "--json") {
            options["json"] = "1";
            continue;
        }
        if (key.rfind("--", 0) != 0 && key != "-o") {
            if (!positional) throw std::runtime_error("unexpected argument " + key);
            positional->push_back(key);
            continue;
        }
        if (i + 1 >= argc) throw std::runtime_error(key + " needs a value");
        options[key == "-o" ? "out" : key.substr(2)] = argv[++i];
    }
    return options;
}

const std::string& required(const Options& options, const std::string& key) {
    auto it = options.find(key);
    if (it == options.end()) throw std::runtime_error("missing --" + key);
    return it->second;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string choose_frontend(const Options& o) {
    if (o.count("frontend")) return o.at("frontend");
    const auto yaml = o.find("native-functions");
    return yaml != o.end() && std::filesystem::exists(yaml->second) ? "yaml" : "headers";
}

codegen::OperatorSet load_operators(const Options& o) {
    const std::string frontend = choose_frontend(o);
    if (frontend == "yaml")
        return codegen::load_native_functions(required(o, "native-functions"), required(o, "tags"),
                                              required(o, "version"));
    if (frontend != "headers") throw std::runtime_error("--frontend must be yaml or headers, not " + frontend);
    if (!o.count("headers"))
        throw std::runtime_error(
            "missing --headers (the header front-end is used when --native-functions names no file)");
#ifdef SPL_TORCH_HEADER_FRONTEND
    return codegen::scan_headers(o.at("headers"), o.count("version") ? o.at("version") : "");
#else
    throw std::runtime_error("this torch-codegen was built without libclang, so it has no header front-end: "
                             "install libclang-dev and reconfigure, or pass --native-functions");
#endif
}

codegen::OperatorSet load_ir(const std::string& path);

// --reference-ir: the IR lib.torch's hand-written library is written against (the pin's,
// generated/ir.json), bound; what it has and this LibTorch lacks is emitted as raising stubs.
// Held by pointer: the bound set points into its IR.
struct Reference {
    std::unique_ptr<codegen::OperatorSet> ir;
    std::unique_ptr<codegen::api::BoundSet> set;
};

Reference load_reference(const Options& o, const codegen::api::Policy& policy) {
    Reference r;
    if (!o.count("reference-ir")) return r;
    r.ir = std::make_unique<codegen::OperatorSet>(load_ir(o.at("reference-ir")));
    r.set = std::make_unique<codegen::api::BoundSet>(codegen::api::bind_all(*r.ir, policy));
    return r;
}

// The IR as text: the one thing every emitter reads.
std::string make_ir(const Options& o) { return codegen::to_json(load_operators(o)).dump(1) + "\n"; }

void emit_from_ir(const std::string& ir_text, const Options& o) {
    const codegen::OperatorSet ir = codegen::from_json(nlohmann::json::parse(ir_text));
    const auto policy = codegen::api::Policy::load(required(o, "policy"));
    const auto set = codegen::api::bind_all(ir, policy);
    const Reference reference = load_reference(o, policy);
    const codegen::api::BoundSet* ref = reference.set.get();
    const int shards = o.count("shards") ? std::stoi(o.at("shards")) : 8;

    std::vector<codegen::emit::OutputFile> files = codegen::emit::emit_cpp(set, shards);
    files.push_back(codegen::emit::emit_registry(set));
    files.push_back(codegen::emit::emit_spl(set, ref));
    files.push_back(codegen::emit::emit_spl_api(set, policy, ref));
    files.push_back(codegen::emit::emit_coverage(set));
    files.push_back(codegen::emit::emit_type_doc(ir));
    codegen::emit::write_files(required(o, "out-dir"), files);
    std::cout << codegen::emit::coverage_summary(set);
    for (const auto& name : set.unused_policy_entries)
        std::cout << "  note: policy entry " << name << " names no operator of LibTorch " << ir.libtorch_version
                  << "\n";
}

// lib.torch's word flavour: the same functions as ffi.spl and core_ffi.spl, calling the word adapters.
void word_flavour(const Options& o) {
    const codegen::OperatorSet ir = load_ir(required(o, "ir"));
    const auto policy = codegen::api::Policy::load(required(o, "policy"));
    const auto set = codegen::api::bind_all(ir, policy);
    const Reference reference = load_reference(o, policy);
    const auto extras = codegen::api::parse_extern_declarations(read_text(required(o, "core-ffi")));
    std::vector<codegen::emit::OutputFile> files = {codegen::emit::emit_word_ffi(set, reference.set.get()),
                                                    codegen::emit::emit_word_core_ffi(ir, extras)};
    if (o.count("manifest-library"))
        files.push_back(
            codegen::emit::emit_manifest(set, extras, o.at("manifest-library"), required(o, "plugin-version")));
    codegen::emit::write_files(required(o, "out-dir"), files);
}

codegen::OperatorSet load_ir(const std::string& path) {
    try {
        return codegen::from_json(nlohmann::json::parse(read_text(path)));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

// The report goes to -o or stdout, with nothing else on stdout so that
// `--json` output can be piped.
void diff(const std::vector<std::string>& irs, const Options& o) {
    if (irs.size() != 2)
        throw std::runtime_error(
            "usage: torch-codegen diff OLD_IR NEW_IR [--json] [--policy P] [--spl-lib DIR] [-o FILE]");
    const std::string root = SPL_TORCH_SOURCE_ROOT;
    const auto policy = codegen::api::Policy::load(o.count("policy") ? o.at("policy") : root + "/schema/policy.json");
    const std::string library = o.count("spl-lib") ? o.at("spl-lib") : root + "/spl_stubs/lib/torch";
    const codegen::OperatorSet old_ir = load_ir(irs[0]), new_ir = load_ir(irs[1]);
    const auto d = codegen::diff::diff_irs(old_ir, new_ir, policy, library);
    const std::string report =
        o.count("json") ? codegen::diff::json_report(d).dump(1) + "\n" : codegen::diff::text_report(d);
    if (o.count("out"))
        std::ofstream(o.at("out"), std::ios::binary) << report;
    else
        std::cout << report;
    std::cerr << "torch-codegen diff: " << codegen::diff::summary_line(d) << "\n";
}

int run(int argc, char** argv) {
    if (argc < 2) throw std::runtime_error("usage: torch-codegen ir|emit|generate|word-flavour|diff [options]");
    const std::string command = argv[1];
    std::vector<std::string> positional;
    const Options o = parse_options(argc, argv, 2, command == "diff" ? &positional : nullptr);
    if (command == "diff") {
        diff(positional, o);
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    if (command == "ir") {
        const std::string ir = make_ir(o); // before opening -o: a failed scan leaves no empty file
        std::ofstream(required(o, "out"), std::ios::binary) << ir;
    } else if (command == "emit") {
        emit_from_ir(read_text(required(o, "ir")), o);
    } else if (command == "word-flavour") {
        word_flavour(o);
    } else if (command == "generate") {
        const std::string ir = make_ir(o);
        codegen::emit::write_files(required(o, "out-dir"), {{"ir.json", ir}});
        emit_from_ir(ir, o);
    } else {
        throw std::runtime_error("unknown command '" + command + "'");
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << "torch-codegen " << command << ": " << static_cast<int>(ms) << " ms\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "torch-codegen: " << e.what() << "\n";
        return 1;
    }
}
