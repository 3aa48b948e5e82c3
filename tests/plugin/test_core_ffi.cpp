// spl_stubs/lib/torch/core_ffi.spl against the plugin's registered functions:
// its declarations are exactly the hand-written extras' signatures, which
// SPL_EXTRA derives from their C types. The generated ffi.spl of this build
// declares the rest, so every registered function is declared once.
#include "test_support.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

using namespace plugin_test;

namespace {

// One space for each run of whitespace, and none inside brackets or before a
// comma, so that a declaration may be wrapped over lines.
std::string normalised(const std::string& text) {
    std::string out;
    bool pending_space = false;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            pending_space = !out.empty();
            continue;
        }
        const bool glued =
            c == ')' || c == ']' || c == ',' || (!out.empty() && (out.back() == '(' || out.back() == '['));
        if (pending_space && !glued) out += ' ';
        pending_space = false;
        out += c;
    }
    return out;
}

std::string name_of(const std::string& declaration) {
    const std::string prefix = "extern fn ";
    const size_t open = declaration.find('(');
    return open == std::string::npos ? declaration : declaration.substr(prefix.size(), open - prefix.size());
}

// Every `extern fn` of a .spl file by name, normalised. A declaration runs on
// until its parentheses close; docstrings and comments are skipped.
struct Declarations {
    std::map<std::string, std::string> by_name;
    std::string duplicates; // one line per name declared twice
};

Declarations read_declarations(const std::string& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path);
    Declarations result;
    std::string line, pending;
    bool in_docstring = false;
    int depth = 0;
    while (std::getline(in, line)) {
        const std::string text = normalised(line);
        if (pending.empty()) {
            if (text.rfind("\"\"\"", 0) == 0 && (text.size() < 6 || text.compare(text.size() - 3, 3, "\"\"\"") != 0))
                in_docstring = !in_docstring; // a line """...""" opens and closes
            if (in_docstring || text.rfind("extern fn ", 0) != 0) continue;
        }
        if (!pending.empty()) pending += ' ';
        pending += text.substr(0, text.find('#'));
        for (char c : text) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (depth > 0) continue;
        const std::string declaration = normalised(pending);
        if (!result.by_name.emplace(name_of(declaration), declaration).second)
            result.duplicates += name_of(declaration) + "\n";
        pending.clear();
        depth = 0;
    }
    return result;
}

std::string path_from_env(const char* variable) {
    const char* path = std::getenv(variable);
    REQUIRE_MESSAGE(path != nullptr, variable << " is not set (meson test sets it)");
    return path;
}

// The declaration a function's fields describe, independent of its
// `signature` text.
std::string declaration_from_fields(const SplFunction& fn) {
    std::string text = std::string("extern fn ") + fn.name + "(";
    for (int32_t i = 0; i < fn.nparams; ++i)
        text += std::string(i ? ", " : "") + fn.params[i].name + ": " + fn.params[i].simple_type;
    text += ")";
    if (*fn.return_type) text += std::string(" -> ") + fn.return_type;
    return text;
}

} // namespace

TEST_CASE("core_ffi.spl declares exactly the registered extras, as registered") {
    const Declarations core = read_declarations(path_from_env("SPL_TORCH_CORE_FFI"));
    const Declarations generated = read_declarations(path_from_env("SPL_TORCH_GENERATED_FFI"));
    CHECK(core.duplicates == "");
    CHECK(generated.duplicates == "");
    REQUIRE(core.by_name.size() >= 30);
    REQUIRE(generated.by_name.size() > 1000);

    // One line per problem, so that a failure lists them all.
    std::string wrong;
    for (const auto& [name, declaration] : core.by_name) {
        const SplFunction* fn = plugin().info().find(name.c_str());
        if (!fn)
            wrong += "declared but not registered: " + declaration + "\n";
        else if (normalised(fn->signature) != declaration)
            wrong += "declared: " + declaration + "\n  registered: " + fn->signature + "\n";
        if (generated.by_name.count(name)) wrong += "also generated: " + name + "\n";
    }
    const SplPluginInfo& info = plugin().info();
    int64_t extras = 0;
    for (int64_t i = 0; i < info.nfunctions; ++i) {
        const SplFunction& fn = info.functions[i];
        if (generated.by_name.count(fn.name)) continue;
        ++extras;
        if (!core.by_name.count(fn.name)) wrong += std::string("registered but not declared: ") + fn.signature + "\n";
        // What the host checks a call against (params, return type) says the
        // same as the signature text it checks declarations against.
        if (declaration_from_fields(fn) != fn.signature || fn.nrequired != fn.nparams)
            wrong += std::string("fields disagree with the signature: ") + fn.signature + "\n";
    }
    CHECK(wrong == "");
    CHECK(extras == static_cast<int64_t>(core.by_name.size()));
}
