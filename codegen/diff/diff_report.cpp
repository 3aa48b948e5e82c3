// Formats an upgrade diff as text for people and as JSON for tools.
#include "diff/diff_report.h"

#include <sstream>

namespace codegen::diff {

namespace {

size_t count_kind(const std::vector<DeclarationChange>& changes, const std::string& kind) {
    size_t n = 0;
    for (const auto& c : changes) n += c.kind == kind;
    return n;
}

std::string side_text(const Side& s) {
    return s.libtorch_version + " (" + s.source + ", " + std::to_string(s.operators) + " operators)";
}

std::string argument_change_text(const ArgumentChange& c) {
    if (c.kind == "added") return "added `" + c.new_value + "`";
    if (c.kind == "removed") return "removed `" + c.old_value + "`";
    if (c.kind == "renamed") return "renamed from " + c.old_value;
    if (c.kind == "kwarg_only") return std::string(c.new_value == "true" ? "became" : "is no longer") + " keyword-only";
    if (c.kind == "moved") return "moved from position " + c.old_value + " to " + c.new_value;
    return c.kind + " " + c.old_value + " -> " + c.new_value; // type, default
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "(none)" : out;
}

void operators_section(std::ostringstream& out, const OperatorDiff& ops) {
    out << "\nOperators added (" << ops.added.size() << "):\n";
    for (const auto& name : ops.added) out << "  " << name << "\n";
    out << "\nOperators removed (" << ops.removed.size() << "):\n";
    for (const auto& name : ops.removed) out << "  " << name << "\n";
    out << "\nOperators whose signature changed (" << ops.changed.size() << "):\n";
    for (const auto& c : ops.changed) {
        out << "  " << c.op << "\n    old: " << c.old_schema << "\n    new: " << c.new_schema << "\n";
        for (const auto& a : c.arguments)
            out << "    argument " << a.argument << ": " << argument_change_text(a) << "\n";
        if (c.returns_changed) out << "    returns: " << c.old_returns << " -> " << c.new_returns << "\n";
    }
}

void declarations_section(std::ostringstream& out, const DeclarationDiff& decls) {
    out << "\nSimple declarations (extern fn): added " << count_kind(decls.changes, "added") << ", removed "
        << count_kind(decls.changes, "removed") << ", changed " << count_kind(decls.changes, "changed") << "\n";
    for (const auto& c : decls.changes) {
        out << "  " << c.kind << " " << c.entry_point << " (" << c.op << ")\n";
        if (!c.old_declaration.empty()) out << "    - " << c.old_declaration << "\n";
        if (!c.new_declaration.empty()) out << "    + " << c.new_declaration << "\n";
    }
    out << "\nOperators without an entry point (" << decls.no_binding.size() << "):\n";
    for (const auto& u : decls.no_binding) out << "  " << u.side << " " << u.op << ": " << u.reason << "\n";
}

void library_section(std::ostringstream& out, const LibraryScan& lib) {
    out << "\nHand-written Simple library: scanned " << joined(lib.scanned) << "; skipped as generated "
        << joined(lib.skipped_generated) << "\n";
    out << "Lines calling an entry point the upgrade removes or changes (they break on the new LibTorch),\n"
           "or one only the new LibTorch has (they break on the old one): "
        << lib.uses.size() << "\n";
    for (const auto& u : lib.uses)
        out << "  " << u.file << ":" << u.line << " in " << (u.function.empty() ? "(module level)" : "fn " + u.function)
            << ": " << u.entry_point << " (" << u.change << ")\n      " << u.text << "\n";
}

nlohmann::ordered_json side_json(const Side& s) {
    return {{"libtorch_version", s.libtorch_version}, {"source", s.source}, {"operators", s.operators}};
}

nlohmann::ordered_json operator_change_json(const OperatorChange& c) {
    nlohmann::ordered_json args = nlohmann::ordered_json::array();
    for (const auto& a : c.arguments)
        args.push_back({{"change", a.kind}, {"argument", a.argument}, {"old", a.old_value}, {"new", a.new_value}});
    nlohmann::ordered_json j = {
        {"operator", c.op}, {"old_schema", c.old_schema}, {"new_schema", c.new_schema}, {"arguments", args}};
    j["returns"] = c.returns_changed ? nlohmann::ordered_json{{"old", c.old_returns}, {"new", c.new_returns}}
                                     : nlohmann::ordered_json(nullptr);
    return j;
}

} // namespace

std::string summary_line(const IrDiff& d) {
    return "added " + std::to_string(d.operators.added.size()) + ", removed " +
           std::to_string(d.operators.removed.size()) + ", changed " + std::to_string(d.operators.changed.size());
}

std::string text_report(const IrDiff& d) {
    std::ostringstream out;
    out << "LibTorch upgrade: " << side_text(d.old_side) << " -> " << side_text(d.new_side) << "\n";
    out << "Operators (name.overload): " << summary_line(d) << "\n";
    operators_section(out, d.operators);
    declarations_section(out, d.declarations);
    if (d.library) library_section(out, *d.library);
    out << "\n" << summary_line(d) << "\n";
    return out.str();
}

nlohmann::ordered_json json_report(const IrDiff& d) {
    nlohmann::ordered_json j;
    j["old"] = side_json(d.old_side);
    j["new"] = side_json(d.new_side);
    const auto& changes = d.declarations.changes;
    j["summary"] = {{"added", d.operators.added.size()},
                    {"removed", d.operators.removed.size()},
                    {"changed", d.operators.changed.size()},
                    {"declarations",
                     {{"added", count_kind(changes, "added")},
                      {"removed", count_kind(changes, "removed")},
                      {"changed", count_kind(changes, "changed")}}},
                    {"no_binding", d.declarations.no_binding.size()},
                    {"library_uses", d.library ? nlohmann::ordered_json(d.library->uses.size()) : nullptr}};
    nlohmann::ordered_json changed = nlohmann::ordered_json::array();
    for (const auto& c : d.operators.changed) changed.push_back(operator_change_json(c));
    j["operators"] = {{"added", d.operators.added}, {"removed", d.operators.removed}, {"changed", changed}};
    nlohmann::ordered_json decls = nlohmann::ordered_json::array();
    for (const auto& c : changes)
        decls.push_back({{"change", c.kind},
                         {"entry_point", c.entry_point},
                         {"operator", c.op},
                         {"old", c.old_declaration.empty() ? nlohmann::ordered_json(nullptr)
                                                           : nlohmann::ordered_json(c.old_declaration)},
                         {"new", c.new_declaration.empty() ? nlohmann::ordered_json(nullptr)
                                                           : nlohmann::ordered_json(c.new_declaration)}});
    j["declarations"] = decls;
    nlohmann::ordered_json unbound = nlohmann::ordered_json::array();
    for (const auto& u : d.declarations.no_binding)
        unbound.push_back({{"side", u.side}, {"operator", u.op}, {"reason", u.reason}});
    j["no_binding"] = unbound;
    if (d.library) {
        nlohmann::ordered_json uses = nlohmann::ordered_json::array();
        for (const auto& u : d.library->uses)
            uses.push_back({{"file", u.file},
                            {"line", u.line},
                            {"function", u.function},
                            {"entry_point", u.entry_point},
                            {"change", u.change},
                            {"text", u.text}});
        j["library"] = {
            {"scanned", d.library->scanned}, {"skipped_generated", d.library->skipped_generated}, {"uses", uses}};
    } else {
        j["library"] = nullptr;
    }
    return j;
}

} // namespace codegen::diff
