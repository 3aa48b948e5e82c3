// Builds an extra's SplFunction from the types SPL_EXTRA derived from its C
// signature, and registers it.
#include "abi/extra_registration.h"

namespace spl {

ExtraRegistration::ExtraRegistration(SplFunction& entry, const char* name, const char* return_type,
                                     const std::vector<const char*>& param_names,
                                     const std::vector<const char*>& param_types, SplBoxedFn boxed, void (*typed)(void),
                                     SplWordFn word) {
    auto* texts = new Texts();
    texts->signature = std::string("extern fn ") + name + "(";
    for (size_t i = 0; i < param_names.size(); ++i) {
        texts->params.push_back(SplParam{param_names[i], param_types[i], nullptr});
        texts->signature += (i ? ", " : "") + std::string(param_names[i]) + ": " + param_types[i];
    }
    texts->signature += ")";
    if (*return_type) texts->signature += std::string(" -> ") + return_type;
    texts_ = texts;

    const auto nparams = static_cast<int32_t>(texts->params.size());
    // Every parameter is required: extras take no defaults. A function without
    // parameters has no parameter array at all, as in the generated table.
    entry = SplFunction{name,        texts->signature.c_str(),
                        return_type, texts->params.empty() ? nullptr : texts->params.data(),
                        nparams,     nparams,
                        boxed,       typed,
                        word};
    register_extra(entry);
}

} // namespace spl
