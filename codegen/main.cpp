// torch-codegen: LibTorch's operator schemas -> JSON IR -> C++ entry points,
// Simple declarations, the registration table and a coverage report.
//
//   torch-codegen ir       --native-functions F --tags F --version V -o IR.json
//   torch-codegen emit     --ir IR.json --policy P --out-dir D [--shards N]
//   torch-codegen generate --native-functions F --tags F --version V --policy P
//                          --out-dir D [--shards N]      (ir + emit in one run)
#include "api/bound_set.h"
#include "emit/emitters.h"
#include "frontend/yaml_frontend.h"
#include "model/ir_json.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using Options = std::map<std::string, std::string>;

Options parse_options(int argc, char** argv, int first) {
    Options options;
    for (int i = first; i < argc; ++i) {
        std::string key = argv[i];
        if (key.rfind("--", 0) != 0 && key != "-o") throw std::runtime_error("unexpected argument " + key);
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

// The IR as text: the one thing every emitter reads.
std::string make_ir(const Options& o) {
    codegen::OperatorSet set =
        codegen::load_native_functions(required(o, "native-functions"), required(o, "tags"), required(o, "version"));
    return codegen::to_json(set).dump(1) + "\n";
}

void emit_from_ir(const std::string& ir_text, const Options& o) {
    const codegen::OperatorSet ir = codegen::from_json(nlohmann::json::parse(ir_text));
    const auto policy = codegen::api::Policy::load(required(o, "policy"));
    const auto set = codegen::api::bind_all(ir, policy);
    const int shards = o.count("shards") ? std::stoi(o.at("shards")) : 8;

    std::vector<codegen::emit::OutputFile> files = codegen::emit::emit_cpp(set, shards);
    files.push_back(codegen::emit::emit_registry(set));
    files.push_back(codegen::emit::emit_spl(set));
    files.push_back(codegen::emit::emit_spl_api(set, policy));
    files.push_back(codegen::emit::emit_coverage(set));
    files.push_back(codegen::emit::emit_type_doc(ir));
    codegen::emit::write_files(required(o, "out-dir"), files);
    std::cout << codegen::emit::coverage_summary(set);
    for (const auto& name : set.unused_policy_entries)
        std::cout << "  note: policy entry " << name << " names no operator of LibTorch " << ir.libtorch_version << "\n";
}

int run(int argc, char** argv) {
    if (argc < 2) throw std::runtime_error("usage: torch-codegen ir|emit|generate [options]");
    const std::string command = argv[1];
    const Options o = parse_options(argc, argv, 2);
    const auto start = std::chrono::steady_clock::now();
    if (command == "ir") {
        std::ofstream(required(o, "out"), std::ios::binary) << make_ir(o);
    } else if (command == "emit") {
        emit_from_ir(read_text(required(o, "ir")), o);
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
