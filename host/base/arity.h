// arity.h — the one wording of a call given the wrong number of arguments, Python's:
//
//   area() takes 2 positional arguments but 3 were given
//   scale() takes from 1 to 2 positional arguments but 3 were given
//   max() takes at least 1 positional argument but 0 were given
//   area() missing 1 required positional argument: 'w'
//   box() missing 3 required positional arguments: 'x', 'y', and 'z'
//
// Every callee raises it from here: functions and methods, constructors, enum variants,
// externs, built-in functions, built-in methods and matchers.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/source.h"

namespace spl {

// What an arity message says of its callee (built only when one is raised).
struct Arity {
    static constexpr size_t kAny = static_cast<size_t>(-1);
    Arity(std::string callee_, size_t min_, size_t max_, std::string note_ = {})
        : callee(std::move(callee_)), min(min_), max(max_), note(std::move(note_)) {}
    std::string callee; // printed as `callee()`: "area", "Tensor.add", "Point"
    size_t min;         // positional arguments it needs
    size_t max;         // positional arguments it takes (kAny: no limit)
    std::string note;   // appended: "\n  signature: ..." where the callee has one
};

// Raises the error for a call of `a.callee` with `given` positional arguments. With `missing`
// (the required parameters left without a value, in order), the "missing" form; else the
// "takes" form, for a callee whose parameters have no names to give.
[[noreturn]] void arity_error(SourceLoc loc, const Arity& a, size_t given,
                              const std::vector<std::string>& missing = {});

} // namespace spl
