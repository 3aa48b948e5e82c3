// Collects the at::_ops structs and their callers from an installed LibTorch's headers.
#include "frontend/header_facts.h"

#include "frontend/c_string_literal.h"
#include "frontend/clang_tokens.h"

#include <stdexcept>

namespace codegen {

namespace {

bool is_function(CXCursorKind k) { return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate; }
bool is_method(CXCursorKind k) { return k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate; }
bool is_class(CXCursorKind k) { return k == CXCursor_ClassDecl || k == CXCursor_StructDecl; }

// at::Tensor or at::TensorBase: the classes whose members are the C++ methods.
bool is_tensor_class(CXCursor c) {
    if (!is_class(clang_getCursorKind(c))) return false;
    const std::string name = clang::spelling(c);
    if (name != "Tensor" && name != "TensorBase") return false;
    const CXCursor ns = clang_getCursorSemanticParent(c);
    return clang_getCursorKind(ns) == CXCursor_Namespace && clang::spelling(ns) == "at";
}

// The _ops structs a body calls: `_ops :: <struct> :: call|redispatch`.
void collect_calls(const std::vector<std::string>& body, std::set<std::string>& out) {
    for (size_t i = 0; i + 4 < body.size(); ++i)
        if (body[i] == "_ops" && body[i + 1] == "::" && body[i + 3] == "::" &&
            (body[i + 4] == "call" || body[i + 4] == "redispatch"))
            out.insert(body[i + 2]);
}

class Walker {
public:
    Walker(const clang::Unit& unit, HeaderFacts& facts) : tokens_(unit.tu()), facts_(facts) {}

    void translation_unit(CXCursor root) {
        clang::for_each_child(root, [&](CXCursor c) {
            if (clang_getCursorKind(c) == CXCursor_Namespace && clang::spelling(c) == "at") namespace_at(c);
        });
    }

private:
    void namespace_at(CXCursor ns) {
        clang::for_each_child(ns, [&](CXCursor c) {
            const CXCursorKind kind = clang_getCursorKind(c);
            if (kind == CXCursor_Namespace) {
                if (clang::spelling(c) == "_ops") namespace_ops(c);
            } else if (is_tensor_class(c)) {
                clang::for_each_child(c, [&](CXCursor member) {
                    if (is_method(clang_getCursorKind(member))) method(member);
                });
            } else if (is_function(kind) || kind == CXCursor_CXXMethod) {
                const CXCursor parent = clang_getCursorSemanticParent(c);
                if (is_tensor_class(parent)) {
                    method(c); // an out-of-line definition, as TensorBody.h writes them
                } else if (clang_getCursorKind(parent) == CXCursor_Namespace) {
                    collect_calls(tokens_.body_after(c), facts_.called_by_functions);
                }
            }
        });
    }

    void method(CXCursor c) { collect_calls(tokens_.body_after(c), facts_.called_by_methods); }

    void namespace_ops(CXCursor ns) {
        clang::for_each_child(ns, [&](CXCursor c) {
            if (clang_getCursorKind(c) == CXCursor_StructDecl && clang_isCursorDefinition(c)) ops_struct(c);
        });
    }

    void ops_struct(CXCursor s) {
        OpsStruct op;
        op.struct_name = clang::spelling(s);
        bool has_name = false, has_overload = false, has_schema = false;
        clang::for_each_child(s, [&](CXCursor c) {
            if (clang_getCursorKind(c) != CXCursor_VarDecl) return;
            const std::string field = clang::spelling(c);
            if (field == "name")
                op.name = literal(c), has_name = true;
            else if (field == "overload_name")
                op.overload_name = literal(c), has_overload = true;
            else if (field == "schema_str") {
                op.schema_str = literal(c);
                has_schema = true;
                const clang::Place at = clang::place_of(clang_getCursorLocation(c));
                op.file = at.path;
                op.line = at.line;
            }
        });
        if (!has_name || !has_overload || !has_schema) {
            const clang::Place at = clang::place_of(clang_getCursorLocation(s));
            throw std::runtime_error(at.path + ":" + std::to_string(at.line) + ": at::_ops::" + op.struct_name +
                                     " lacks name, overload_name or schema_str");
        }
        facts_.ops.push_back(std::move(op));
    }

    // The value of a `static constexpr const char* x = "..."` member, read
    // from the tokens of its initializer's string literal(s), because
    // libclang exposes no literal's value.
    std::string literal(CXCursor var) {
        CXCursor found = clang_getNullCursor();
        find_string_literal(var, found);
        std::string value;
        int pieces = 0;
        if (!clang_Cursor_isNull(found))
            for (const std::string& t : tokens_.spelled_from(clang_getCursorLocation(found), 64)) {
                if (t.empty() || t.front() != '"') break; // adjacent literals are one string
                value += c_string_literal_value(t);
                ++pieces;
            }
        if (pieces == 0) {
            const clang::Place at = clang::place_of(clang_getCursorLocation(var));
            throw std::runtime_error(at.path + ":" + std::to_string(at.line) + ": " + clang::spelling(var) +
                                     " is not initialised with a string literal");
        }
        return value;
    }

    // The first StringLiteral under `c` (behind implicit casts).
    static void find_string_literal(CXCursor c, CXCursor& found) {
        clang::for_each_child(c, [&](CXCursor child) {
            if (!clang_Cursor_isNull(found)) return;
            if (clang_getCursorKind(child) == CXCursor_StringLiteral)
                found = child;
            else
                find_string_literal(child, found);
        });
    }

    clang::FileTokens tokens_;
    HeaderFacts& facts_;
};

} // namespace

HeaderFacts read_header_facts(const clang::Unit& unit) {
    HeaderFacts facts;
    Walker(unit, facts).translation_unit(unit.root());
    return facts;
}

} // namespace codegen
