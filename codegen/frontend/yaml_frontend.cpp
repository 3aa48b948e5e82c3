// Reads the YAML with yaml-cpp. Only the keys that matter to the operator
// set are read; the rest (dispatch kernels, structured metadata) belong to
// PyTorch's build, not to bindings.
#include "frontend/yaml_frontend.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "frontend/autogen.h"
#include "model/parse.h"

namespace codegen {

namespace {

std::string file_name(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

YAML::Node load_yaml(const std::string& path) {
    try {
        return YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
        throw std::runtime_error(path + ": cannot read the file");
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(file_name(path) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
}

// "a, b" -> {"a", "b"}
std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        std::string item = text.substr(start, comma - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) out.push_back(std::move(item));
        start = comma + 1;
    }
    return out;
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::set<std::string> load_valid_tags(const std::string& tags_yaml) {
    const YAML::Node root = load_yaml(tags_yaml);
    if (!root.IsSequence()) throw std::runtime_error(tags_yaml + ": expected a list of `- tag:` entries");
    std::set<std::string> tags;
    for (const YAML::Node& entry : root) {
        const YAML::Node tag = entry["tag"];
        if (!tag || !tag.IsScalar())
            throw std::runtime_error(file_name(tags_yaml) + ":" + std::to_string(entry.Mark().line + 1) +
                                     ": expected `tag: <name>`");
        tags.insert(tag.Scalar());
    }
    return tags;
}

class EntryReader {
public:
    EntryReader(const YAML::Node& entry, std::string origin) : entry_(entry), origin_(std::move(origin)) {}

    [[noreturn]] void fail(const std::string& problem) const { throw std::runtime_error(origin_ + ": " + problem); }

    std::string scalar(const char* key, const std::string& fallback) const {
        const YAML::Node n = entry_[key];
        if (!n) return fallback;
        if (!n.IsScalar()) fail(std::string("`") + key + ":` must be a string");
        return n.Scalar();
    }

    bool flag(const char* key) const {
        const YAML::Node n = entry_[key];
        if (!n) return false;
        bool value = false;
        if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value))
            fail(std::string("`") + key + ":` must be True or False");
        return value;
    }

    // `tags:` is a single name or a list of names.
    std::vector<std::string> tags(const std::set<std::string>& valid) const {
        const YAML::Node n = entry_["tags"];
        std::vector<std::string> out;
        if (!n) return out;
        if (n.IsScalar())
            out = split_list(n.Scalar());
        else if (n.IsSequence())
            for (const YAML::Node& t : n) out.push_back(t.as<std::string>());
        else
            fail("`tags:` must be a name or a list of names");
        for (const std::string& t : out)
            if (!valid.count(t)) fail("unknown tag '" + t + "' (not in tags.yaml)");
        return sorted_unique(out);
    }

    std::vector<std::string> variants() const {
        std::vector<std::string> out = split_list(scalar("variants", "function"));
        for (const std::string& v : out)
            if (v != "function" && v != "method") fail("unknown variant '" + v + "' (expected function or method)");
        return sorted_unique(out);
    }

    // torchgen: a kernel for CompositeImplicitAutograd, either listed under
    // `dispatch:` or implied by having no dispatch table and no structured kernel.
    bool composite_implicit() const {
        const YAML::Node dispatch = entry_["dispatch"];
        if (!dispatch) return !flag("structured") && !entry_["structured_delegate"];
        if (!dispatch.IsMap()) fail("`dispatch:` must be a map");
        for (const auto& kv : dispatch)
            for (const std::string& key : split_list(kv.first.Scalar()))
                if (key == "CompositeImplicitAutograd") return true;
        return false;
    }

private:
    const YAML::Node& entry_;
    std::string origin_;
};

NativeEntry read_entry(const YAML::Node& node, const std::string& file, const std::set<std::string>& valid_tags) {
    NativeEntry e;
    e.op.origin = file + ":" + std::to_string(node.Mark().line + 1);
    EntryReader r(node, e.op.origin);
    if (!node.IsMap()) r.fail("expected an entry `- func: ...`");
    const std::string func = r.scalar("func", "");
    if (func.empty()) r.fail("missing `func:`");
    e.op.schema = parse_schema(func, e.op.origin);
    e.op.variants = r.variants();
    e.op.tags = r.tags(valid_tags);
    e.autogen = split_list(r.scalar("autogen", ""));
    e.manual_cpp_binding = r.flag("manual_cpp_binding");
    e.composite_implicit = r.composite_implicit();
    return e;
}

void sort_and_check_unique(std::vector<Operator>& ops) {
    std::sort(ops.begin(), ops.end(), [](const Operator& a, const Operator& b) {
        if (a.schema.name != b.schema.name) return a.schema.name < b.schema.name;
        return a.schema.overload_name < b.schema.overload_name;
    });
    for (size_t i = 1; i < ops.size(); ++i)
        if (ops[i].schema.name == ops[i - 1].schema.name &&
            ops[i].schema.overload_name == ops[i - 1].schema.overload_name)
            throw std::runtime_error(ops[i].origin + ": " + ops[i].schema.qualified_name() +
                                     " is defined twice (also at " + ops[i - 1].origin + ")");
}

} // namespace

OperatorSet load_native_functions(const std::string& native_functions_yaml, const std::string& tags_yaml,
                                  const std::string& libtorch_version) {
    const std::set<std::string> valid_tags = load_valid_tags(tags_yaml);
    const YAML::Node root = load_yaml(native_functions_yaml);
    const std::string file = file_name(native_functions_yaml);
    if (!root.IsSequence()) throw std::runtime_error(file + ": expected a list of `- func:` entries");

    std::vector<NativeEntry> entries;
    entries.reserve(root.size());
    for (const YAML::Node& node : root) entries.push_back(read_entry(node, file, valid_tags));

    OperatorSet set;
    set.libtorch_version = libtorch_version;
    set.source = "native_functions.yaml";
    set.operators = expand_autogen(entries);
    for (NativeEntry& e : entries) set.operators.push_back(std::move(e.op));
    sort_and_check_unique(set.operators);
    return set;
}

} // namespace codegen
