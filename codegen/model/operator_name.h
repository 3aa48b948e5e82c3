// torchgen's reading of an operator name (BaseOperatorName): `add_` is the
// in-place spelling of `add`, `__iand__` the in-place spelling of `__and__`,
// and `foo_functional` the functional variant of a mutable `foo`.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace codegen {

// `__x__` with no '_' inside x.
inline bool is_dunder_name(std::string_view name) {
    return name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__" &&
           name.substr(2, name.size() - 4).find('_') == std::string_view::npos;
}

// The augmented-assignment dunders (PEP 203) are the only in-place dunders.
inline bool is_inplace_dunder(std::string_view name) {
    static constexpr std::array<std::string_view, 11> augmented = {"iadd",    "isub",    "imul", "idiv", "imod", "ipow",
                                                                   "ilshift", "irshift", "iand", "ixor", "ior"};
    if (!is_dunder_name(name)) return false;
    const std::string_view inner = name.substr(2, name.size() - 4);
    for (auto a : augmented)
        if (inner == a) return true;
    return false;
}

inline bool is_inplace_name(std::string_view name) {
    if (is_dunder_name(name)) return is_inplace_dunder(name);
    return !name.empty() && name.back() == '_';
}

// `add_` -> `add`, `__iadd__` -> `__add__`; other names unchanged.
inline std::string without_inplace(std::string_view name) {
    if (is_inplace_dunder(name)) return "__" + std::string(name.substr(3, name.size() - 5)) + "__";
    if (!is_dunder_name(name) && is_inplace_name(name)) return std::string(name.substr(0, name.size() - 1));
    return std::string(name);
}

// The base name torchgen groups variants by: neither in-place nor `_functional`.
inline std::string group_base_name(std::string_view name) {
    std::string base = without_inplace(name);
    static constexpr std::string_view functional_suffix = "_functional";
    if (!is_dunder_name(base) && base.size() > functional_suffix.size() &&
        std::string_view(base).substr(base.size() - functional_suffix.size()) == functional_suffix)
        base.resize(base.size() - functional_suffix.size());
    return base;
}

} // namespace codegen
