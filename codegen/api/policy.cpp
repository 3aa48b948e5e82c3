// Reads schema/policy.json: the operators left unbound, each with its reason (layer 2).
#include "api/policy.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace codegen::api {

Policy Policy::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read policy file " + path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    Policy policy;
    for (const auto& entry : doc.value("exclude_types", nlohmann::json::array()))
        policy.excluded_types[entry.at("type").get<std::string>()] = entry.at("reason").get<std::string>();
    for (const auto& entry : doc.value("exclude_operators", nlohmann::json::array()))
        policy.excluded_operators[entry.at("operator").get<std::string>()] = entry.at("reason").get<std::string>();
    const auto hand_written = doc.value("hand_written", nlohmann::json::object());
    for (const auto& name : hand_written.value("methods", nlohmann::json::array()))
        policy.hand_written_methods.insert(name.get<std::string>());
    for (const auto& name : hand_written.value("functions", nlohmann::json::array()))
        policy.hand_written_functions.insert(name.get<std::string>());
    const auto attributes = doc.value("tensor_attributes", nlohmann::json::object());
    for (const auto& name : attributes.value("names", nlohmann::json::array()))
        policy.tensor_attributes.insert(name.get<std::string>());
    const auto fallbacks = doc.value("absent_fallbacks", nlohmann::json::object());
    const auto fallback_methods = fallbacks.value("methods", nlohmann::json::object());
    for (const auto& [name, lines] : fallback_methods.items())
        policy.absent_method_fallbacks[name] = lines.get<std::vector<std::string>>();
    if (const auto reserved = doc.value("reserved_entry_points", nlohmann::json::object()); reserved.contains("file")) {
        const std::string dir = path.substr(0, path.find_last_of('/') + 1);
        const std::string file = dir + reserved.at("file").get<std::string>();
        std::ifstream list(file);
        if (!list) throw std::runtime_error(path + ": cannot read its reserved_entry_points file " + file);
        const nlohmann::json builtins = nlohmann::json::parse(list); // named: the loop must not outlive it
        for (const auto& builtin : builtins.at("builtins"))
            policy.reserved_entry_points.insert(builtin.at("name").get<std::string>());
    }
    for (const auto& [name, reason] : policy.excluded_operators)
        if (reason.empty()) throw std::runtime_error(path + ": exclusion of " + name + " gives no reason");
    return policy;
}

std::string Policy::entry_point_for(const std::string& generated) const {
    static const std::string prefix = "rt_torch_";
    if (!reserved_entry_points.count(generated) || generated.compare(0, prefix.size(), prefix) != 0) return generated;
    return "rt_torch_aten_" + generated.substr(prefix.size());
}

std::string Policy::exclusion_reason(const Operator& op) const {
    if (auto it = excluded_operators.find(op.schema.qualified_name()); it != excluded_operators.end())
        return it->second;
    auto uses = [&](const Type& t) { return excluded_types.find(t.base); };
    for (const auto& arg : op.schema.arguments)
        if (auto it = uses(arg.type); it != excluded_types.end()) return it->first + ": " + it->second;
    for (const auto& ret : op.schema.returns)
        if (auto it = uses(ret.type); it != excluded_types.end()) return it->first + ": " + it->second;
    return "";
}

} // namespace codegen::api
