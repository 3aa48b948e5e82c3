// The one wording of a call given the wrong number of arguments (arity.h), Python's.
#include "base/arity.h"

#include "base/diagnostics.h"

namespace spl {

namespace {

std::string count_of(size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// 'x' / 'x' and 'y' / 'x', 'y', and 'z': Python's list of missing names.
std::string quoted_list(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += names.size() == 2 ? " and " : i + 1 == names.size() ? ", and " : ", ";
        out += "'" + names[i] + "'";
    }
    return out;
}

} // namespace

void arity_error(SourceLoc loc, const Arity& a, size_t given, const std::vector<std::string>& missing) {
    std::string message = a.callee + "() ";
    if (!missing.empty()) {
        message += "missing " + count_of(missing.size(), "required positional argument") + ": " + quoted_list(missing);
    } else {
        if (a.max == Arity::kAny)
            message += "takes at least " + count_of(a.min, "positional argument");
        else if (a.min == a.max)
            message += "takes " + count_of(a.max, "positional argument");
        else
            message += "takes from " + std::to_string(a.min) + " to " + std::to_string(a.max) + " positional arguments";
        message += " but " + std::to_string(given) + (given == 1 ? " was" : " were") + " given";
    }
    runtime_error(loc, message + a.note);
}

} // namespace spl
